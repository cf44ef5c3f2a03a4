package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.scheduler.api.kai.Preemptibility;
import io.gantry.scheduler.api.kai.PriorityClassTable;
import io.gantry.scheduler.api.kai.QueueAssignment;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupSpec;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAI's pod grouper for the kinds this build handles (kai-reference §1.3, §3.3–3.4): a pod of this
 * scheduler without a {@code pod-group-name} annotation gets a PodGroup, then the annotation. A pod
 * of a {@code batch/v1} Job joins {@code pg-<job>-<job uid>} (minMember 1, or the Job's {@code
 * kai.scheduler/batch-min-member}); any other pod gets {@code pg-<pod>-<pod uid>} (minMember 1).
 * Queue, priority class and preemptibility are resolved as KAI's podgrouper does: the top owner's
 * labels first, then the pod's ({@link QueueAssignment}); a priority class name counts only when
 * the PriorityClass exists, else {@value #DEFAULT_PRIORITY_CLASS}; preemptibility only when valid.
 * Pods or owners annotated {@code kai.scheduler/skip-podgrouper: "true"} are left alone (their
 * PodGroup is the user's).
 *
 * <p>User-created PodGroups are never changed: an existing PodGroup of the computed name is kept.
 * Writes run on the given executor; a pod grouped but not yet annotated in the cache is reported by
 * {@link #assigned} so the snapshot can place it in its PodGroup at once.
 */
final class PodGrouper {
  static final String BATCH_MIN_MEMBER = "kai.scheduler/batch-min-member";
  static final String PREEMPTIBILITY_LABEL = "kai.scheduler/preemptibility";
  static final String PRIORITY_CLASS_LABEL = "priorityClassName";
  static final String DEFAULT_PRIORITY_CLASS = "train";

  private static final Logger LOG = LoggerFactory.getLogger(PodGrouper.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterInformers cache;
  private final KubeWriter writer;
  private final Executor executor;
  private final String schedulerName;
  private final QueueAssignment queues;
  private final Map<String, String> assigned = new ConcurrentHashMap<>();
  private final Set<String> inProgress = ConcurrentHashMap.newKeySet();

  PodGrouper(
      ClusterInformers cache,
      KubeWriter writer,
      Executor executor,
      String schedulerName,
      QueueAssignment queues) {
    this.cache = requireNonNull(cache, "cache is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.schedulerName = requireNonNull(schedulerName, "schedulerName is null");
    this.queues = requireNonNull(queues, "queues is null");
  }

  /** The PodGroup this grouper gave a pod whose annotation the cache does not show yet. */
  Optional<String> assigned(String podKey) {
    return Optional.ofNullable(assigned.get(podKey));
  }

  /** Groups every pending pod of this scheduler that has no PodGroup yet. */
  void run(PriorityClassTable priorities) {
    Set<String> live = ConcurrentHashMap.newKeySet();
    for (V1Pod pod : cache.pods()) {
      String key = PodFacts.key(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
      live.add(key);
      Map<String, String> annotations = pod.getMetadata().getAnnotations();
      if (annotations != null && annotations.containsKey(PodFacts.POD_GROUP_ANNOTATION)) {
        assigned.remove(key);
        continue;
      }
      if (pod.getSpec() == null || !schedulerName.equals(pod.getSpec().getSchedulerName())) {
        continue;
      }
      PodFacts p = PodFacts.of(pod);
      if (!p.schedulerName().equals(schedulerName)
          || p.nodeName().isPresent()
          || p.terminal()
          || p.deletionTimestamp().isPresent()
          || p.skipsPodGrouper()
          || assigned.containsKey(p.key())
          || inProgress.contains(p.key())) {
        continue;
      }
      Optional<KaiPodGroup> group = podGroupFor(pod, p, priorities);
      if (group.isEmpty()) {
        continue;
      }
      inProgress.add(p.key());
      executor.execute(() -> write(p, group.get()));
    }
    assigned.keySet().retainAll(live);
  }

  private void write(PodFacts p, KaiPodGroup group) {
    try {
      writer.createPodGroup(group);
      ObjectNode patch = JSON.createObjectNode();
      patch
          .putObject("metadata")
          .putObject("annotations")
          .put(PodFacts.POD_GROUP_ANNOTATION, group.getMetadata().getName());
      writer.patchPod(p.namespace(), p.name(), patch.toString());
      assigned.put(p.key(), group.getMetadata().getName());
    } catch (ApiException e) {
      LOG.warn("grouping pod {}: HTTP {} {}", p.key(), e.getCode(), e.getResponseBody(), e);
    } finally {
      inProgress.remove(p.key());
    }
  }

  /** The PodGroup KAI's podgrouper would make for the pod; empty while its Job is not cached. */
  Optional<KaiPodGroup> podGroupFor(V1Pod pod, PodFacts p, PriorityClassTable priorities) {
    Map<String, String> podLabels = p.labels();
    Map<String, String> ownerLabels;
    String name;
    int minMember = 1;
    V1OwnerReference ownerRef;
    Optional<V1OwnerReference> controller = p.controller();
    if (controller.isPresent()
        && "Job".equals(controller.get().getKind())
        && "batch/v1".equals(controller.get().getApiVersion())) {
      V1Job job = cache.job(p.namespace(), controller.get().getName());
      if (job == null) {
        return Optional.empty();
      }
      Map<String, String> jobAnnotations = nonNull(job.getMetadata().getAnnotations());
      if ("true".equals(jobAnnotations.get(PodFacts.SKIP_PODGROUPER_ANNOTATION))) {
        return Optional.empty();
      }
      ownerLabels = nonNull(job.getMetadata().getLabels());
      name = "pg-" + job.getMetadata().getName() + "-" + job.getMetadata().getUid();
      minMember = batchMinMember(jobAnnotations.get(BATCH_MIN_MEMBER));
      ownerRef =
          new V1OwnerReference()
              .apiVersion("batch/v1")
              .kind("Job")
              .name(job.getMetadata().getName())
              .uid(job.getMetadata().getUid());
    } else {
      ownerLabels = controller.isPresent() ? Map.of() : podLabels;
      name = "pg-" + p.name() + "-" + p.uid();
      ownerRef = new V1OwnerReference().apiVersion("v1").kind("Pod").name(p.name()).uid(p.uid());
    }
    String priorityClass =
        known(ownerLabels.get(PRIORITY_CLASS_LABEL), priorities)
            .or(() -> known(podLabels.get(PRIORITY_CLASS_LABEL), priorities))
            .or(() -> p.priorityClassName().flatMap(n -> known(n, priorities)))
            .orElse(DEFAULT_PRIORITY_CLASS);
    Optional<Preemptibility> preemptibility =
        Optional.ofNullable(ownerLabels.get(PREEMPTIBILITY_LABEL))
            .flatMap(Preemptibility::parse)
            .or(
                () ->
                    Optional.ofNullable(podLabels.get(PREEMPTIBILITY_LABEL))
                        .flatMap(Preemptibility::parse));
    V1ObjectMeta meta =
        new V1ObjectMeta()
            .name(name)
            .namespace(p.namespace())
            .labels(ownerLabels.isEmpty() ? null : new TreeMap<>(ownerLabels))
            .ownerReferences(List.of(ownerRef));
    return Optional.of(
        new KaiPodGroup(
            KaiPodGroup.GROUP + "/" + KaiPodGroup.VERSION,
            KaiPodGroup.KIND,
            meta,
            new KaiPodGroupSpec(
                minMember,
                null,
                queues.queueOf(ownerLabels, podLabels),
                priorityClass,
                preemptibility.map(Preemptibility::k8sName).orElse(null),
                null,
                null,
                null,
                null,
                null,
                null),
            null));
  }

  private static int batchMinMember(String value) {
    if (value == null) {
      return 1;
    }
    try {
      int n = Integer.parseInt(value.trim());
      return n >= 0 ? n : 1;
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static Optional<String> known(String className, PriorityClassTable priorities) {
    return Optional.ofNullable(className).filter(priorities::knows);
  }

  private static Map<String, String> nonNull(Map<String, String> m) {
    return m == null ? Map.of() : m;
  }
}
