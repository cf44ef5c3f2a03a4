package io.gantry.scheduler.kube.grouping;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.grouping.GroupingInput;
import io.gantry.kubemodel.kai.grouping.MpiJobGrouper;
import io.gantry.kubemodel.kai.grouping.OwnerMeta;
import io.gantry.kubemodel.kai.grouping.PodMeta;
import io.gantry.kubemodel.kai.grouping.PyTorchJobGrouper;
import io.gantry.kubemodel.kai.grouping.WorkloadKind;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import io.gantry.scheduler.kube.informers.OwnerCache;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * KAI's top-owner walk (kai-reference §1.3): from a pod, each object's controller owner reference
 * (else its first) is followed through the API ({@link OwnerCache}) until an object has none; the
 * chain and the top owner's spec become the planner's {@link GroupingInput}. An owner that cannot
 * be read stops the walk with a reason naming it, so the pod waits rather than being grouped as
 * something it is not.
 */
public final class OwnerResolver {
  /** An owner chain longer than this is refused (a cycle of owner references). */
  static final int MAX_DEPTH = 16;

  static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";

  private final OwnerCache owners;
  private final Supplier<List<PodFacts>> pods;

  /**
   * @param pods the cached pods, read for an MPIJob's launcher
   */
  public OwnerResolver(OwnerCache owners, Supplier<List<PodFacts>> pods) {
    this.owners = requireNonNull(owners, "owners is null");
    this.pods = requireNonNull(pods, "pods is null");
  }

  /** What the walk found for one pod. */
  sealed interface Resolution {
    record Resolved(GroupingInput input) implements Resolution {}

    /** An owner's kind is still being listed: try again next cycle. */
    record Waiting() implements Resolution {}

    record Unreadable(String reason) implements Resolution {}
  }

  Resolution resolve(PodFacts pod, List<OwnerRef> podOwners) {
    PodMeta meta =
        PodMeta.of(
            pod.namespace(),
            pod.name(),
            pod.uid(),
            pod.labels(),
            pod.annotations(),
            pod.priorityClassName(),
            pod.nodeName().isPresent());
    List<OwnerMeta> chain = new ArrayList<>();
    List<JsonNode> objects = new ArrayList<>();
    Optional<OwnerRef> next = OwnerRef.controllerOf(podOwners);
    while (next.isPresent()) {
      if (chain.size() >= MAX_DEPTH) {
        return new Resolution.Unreadable(
            "the owner chain of pod " + pod.key() + " is longer than " + MAX_DEPTH);
      }
      OwnerRef ref = next.get();
      OwnerCache.Lookup lookup =
          owners.get(ref.apiVersion(), ref.kind(), pod.namespace(), ref.name());
      if (lookup instanceof OwnerCache.Lookup.Waiting) {
        return new Resolution.Waiting();
      }
      if (lookup instanceof OwnerCache.Lookup.Unreadable u) {
        return new Resolution.Unreadable(u.reason());
      }
      JsonNode object = ((OwnerCache.Lookup.Found) lookup).object();
      chain.add(WorkloadSpecReader.owner(object));
      objects.add(object);
      next = OwnerRef.controllerOf(OwnerRef.of(object.path("metadata").path("ownerReferences")));
    }
    if (chain.isEmpty()) {
      return new Resolution.Resolved(GroupingInput.barePod(meta));
    }
    int top = chain.size() - 1;
    WorkloadKind kind = WorkloadKind.of(chain.get(top));
    Optional<String> unsupported = WorkloadSpecReader.unsupported(kind);
    if (unsupported.isPresent()) {
      return new Resolution.Unreadable(unsupported.get());
    }
    return new Resolution.Resolved(
        GroupingInput.of(chain, spec(kind, chain, objects, top, pod.namespace()), meta));
  }

  /** The spec of the owner at {@code index}, whose kind is {@code kind}. */
  private WorkloadSpec spec(
      WorkloadKind kind, List<OwnerMeta> chain, List<JsonNode> objects, int index, String ns) {
    return switch (kind) {
      case CRON_JOB ->
          index > 0
              ? new WorkloadSpec.CronJobSpec(chain.get(index - 1))
              : new WorkloadSpec.CronJobSpec(chain.get(index));
      case SKIP_TOP_OWNER -> {
        if (index == 0) {
          yield new WorkloadSpec.SkipTopOwnerSpec(Optional.empty(), WorkloadSpec.PLAIN);
        }
        WorkloadKind nextKind = WorkloadKind.of(chain.get(index - 1));
        yield new WorkloadSpec.SkipTopOwnerSpec(
            Optional.of(chain.get(index - 1)), spec(nextKind, chain, objects, index - 1, ns));
      }
      default ->
          WorkloadSpecReader.read(
              kind,
              objects.get(index),
              kind == WorkloadKind.MPI_JOB && launcherExists(ns, chain.get(index).name()));
    };
  }

  /** Whether a launcher pod of the MPIJob exists and is not terminating. */
  private boolean launcherExists(String namespace, String job) {
    String launcher = MpiJobGrouper.LAUNCHER.toLowerCase(Locale.ROOT);
    return pods.get().stream()
        .anyMatch(
            p ->
                p.namespace().equals(namespace)
                    && job.equals(p.labels().get(JOB_NAME_LABEL))
                    && launcher.equals(p.labels().get(PyTorchJobGrouper.REPLICA_TYPE_LABEL))
                    && p.deletionTimestamp().isEmpty());
  }

  /** An owner reference, read from a typed pod or an owner's JSON. */
  record OwnerRef(String apiVersion, String kind, String name, boolean controller) {
    OwnerRef {
      requireNonNull(apiVersion, "apiVersion is null");
      requireNonNull(kind, "kind is null");
      requireNonNull(name, "name is null");
    }

    static ImmutableList<OwnerRef> of(JsonNode ownerReferences) {
      ImmutableList.Builder<OwnerRef> out = ImmutableList.builder();
      for (JsonNode r : ownerReferences) {
        out.add(
            new OwnerRef(
                r.path("apiVersion").asText(),
                r.path("kind").asText(),
                r.path("name").asText(),
                r.path("controller").asBoolean(false)));
      }
      return out.build();
    }

    /** The controller reference, else the first; empty without references. */
    static Optional<OwnerRef> controllerOf(List<OwnerRef> refs) {
      return refs.stream()
          .filter(OwnerRef::controller)
          .findFirst()
          .or(() -> refs.stream().findFirst());
    }
  }
}
