package io.gantry.scheduler.kube.grouping;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.kubemodel.kai.grouping.GroupingConfig;
import io.gantry.kubemodel.kai.grouping.GroupingInput;
import io.gantry.kubemodel.kai.grouping.PodGroupPlan;
import io.gantry.kubemodel.kai.grouping.PodGroupPlanner;
import io.gantry.kubemodel.kai.grouping.WorkloadTypeDefaults;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.grouping.OwnerResolver.OwnerRef;
import io.gantry.scheduler.kube.grouping.OwnerResolver.Resolution;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.snapshot.PodFactsMemo;
import io.gantry.scheduler.kube.snapshot.PodGroupAssignments;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.gantry.scheduler.kube.write.ObjectRef;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAI's pod grouper (kai-reference §1.3, §3.3–3.4): each pending pod of this scheduler without a
 * {@code pod-group-name} annotation is walked to its top owner through the API ({@link
 * OwnerResolver}), and KAI's planner ({@link PodGroupPlanner}) gives its PodGroup. The PodGroup is
 * created, or updated when the planner asks for something it does not have yet (only a PodGroup
 * owned by the planned owner: a user's is never rewritten); then the pod gets the annotation and,
 * when the PodGroup has SubGroups, the {@code kai.scheduler/subgroup-name} label. Pods KAI leaves
 * alone ({@code kai.scheduler/skip-podgrouper} on the pod or an owner, a bare pod naming its
 * PodGroup) are left alone. The per-type defaults come from KAI's optional ConfigMap ({@link
 * WorkloadDefaultsConfigMap}); until it has been read no pod is grouped.
 *
 * <p>A pod whose owner cannot be read, or whose workload KAI would refuse, is not grouped: it gets
 * a {@code PodGrouperWarning} event naming the owner or field, and {@link #problem} gives the
 * message the pod's {@code PodScheduled} condition carries while it waits. Writes run on the given
 * executor; a pod grouped but not yet annotated in the cache is reported by {@link #assigned} so
 * the snapshot places it in its PodGroup at once.
 */
public final class PodGrouper implements PodGroupAssignments {
  static final String WARNING = "PodGrouperWarning";

  private static final Logger LOG = LoggerFactory.getLogger(PodGrouper.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterInformers cache;
  private final OwnerResolver owners;
  private final KubeWriter writer;
  private final EventRecorder events;
  private final Executor executor;
  private final String schedulerName;
  private final QueueAssignment queues;
  private final WorkloadDefaultsConfigMap typeDefaults;
  private final PodFactsMemo podFacts;
  private final Map<String, String> assigned = new ConcurrentHashMap<>();
  private final Map<String, String> problems = new ConcurrentHashMap<>();
  private final Set<String> inProgress = ConcurrentHashMap.newKeySet();

  public PodGrouper(
      ClusterInformers cache,
      OwnerResolver owners,
      KubeWriter writer,
      EventRecorder events,
      Executor executor,
      String schedulerName,
      QueueAssignment queues,
      WorkloadDefaultsConfigMap typeDefaults,
      PodFactsMemo podFacts) {
    this.cache = requireNonNull(cache, "cache is null");
    this.owners = requireNonNull(owners, "owners is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.events = requireNonNull(events, "events is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.schedulerName = requireNonNull(schedulerName, "schedulerName is null");
    this.queues = requireNonNull(queues, "queues is null");
    this.typeDefaults = requireNonNull(typeDefaults, "typeDefaults is null");
    this.podFacts = requireNonNull(podFacts, "podFacts is null");
  }

  /** The PodGroup this grouper gave a pod whose annotation the cache does not show yet. */
  @Override
  public Optional<String> assigned(String podKey) {
    return Optional.ofNullable(assigned.get(podKey));
  }

  /** Why the pod could not be grouped the last time it was tried; empty when it could. */
  @Override
  public Optional<String> problem(String podKey) {
    return Optional.ofNullable(problems.get(podKey));
  }

  /** Groups every pending pod of this scheduler that has no PodGroup yet. */
  public void run(PriorityClassTable priorities) {
    Optional<WorkloadTypeDefaults> defaults = typeDefaults.current();
    if (defaults.isEmpty()) {
      return;
    }
    PodGroupPlanner planner =
        new PodGroupPlanner(new GroupingConfig(queues, priorities, defaults.get(), true));
    List<V1Pod> pods = cache.pods();
    List<PodFacts> facts = podFacts.of(pods);
    for (int i = 0; i < pods.size(); i++) {
      V1Pod pod = pods.get(i);
      if (!ownPod(pod)) {
        continue;
      }
      PodFacts p = facts.get(i);
      if (p.podGroupName().isPresent()) {
        assigned.remove(p.key());
        problems.remove(p.key());
        continue;
      }
      if (p.nodeName().isPresent()
          || p.terminal()
          || p.deletionTimestamp().isPresent()
          || assigned.containsKey(p.key())
          || inProgress.contains(p.key())) {
        continue;
      }
      group(p, ownerRefs(pod), planner);
    }
    // the pods kept here are few next to the cache's: each is looked up, rather than every cached
    // pod's key collected
    assigned.keySet().removeIf(key -> !ownPod(cache.pod(key)));
    problems.keySet().removeIf(key -> !ownPod(cache.pod(key)));
  }

  /** Whether the pod (null when not cached) is this scheduler's. */
  private boolean ownPod(V1Pod pod) {
    return pod != null
        && pod.getSpec() != null
        && schedulerName.equals(pod.getSpec().getSchedulerName());
  }

  /**
   * Groups one pod now, as {@link #run} groups each (for the HTTP extender, which groups a pod of a
   * request when it is asked about it). The writes run on this grouper's executor; afterwards
   * {@link #assigned} names the PodGroup, or {@link #problem} says why the pod waits. Nothing is
   * done while the per-type defaults have not been read, or for a pod already grouped.
   */
  public void groupNow(V1Pod pod, PriorityClassTable priorities) {
    Optional<WorkloadTypeDefaults> defaults = typeDefaults.current();
    PodFacts p = PodFacts.of(pod);
    if (defaults.isEmpty() || assigned.containsKey(p.key()) || inProgress.contains(p.key())) {
      return;
    }
    group(
        p,
        ownerRefs(pod),
        new PodGroupPlanner(new GroupingConfig(queues, priorities, defaults.get(), true)));
  }

  private void group(PodFacts p, List<OwnerRef> refs, PodGroupPlanner planner) {
    Resolution resolution = owners.resolve(p, refs);
    if (resolution instanceof Resolution.Waiting) {
      return;
    }
    if (resolution instanceof Resolution.Unreadable u) {
      fail(p, u.reason());
      return;
    }
    GroupingInput input = ((Resolution.Resolved) resolution).input();
    if (PodGroupPlanner.leavesAlone(input)) {
      problems.remove(p.key());
      return;
    }
    PodGroupPlan plan;
    try {
      plan = planner.plan(input);
      plan.tree();
    } catch (KaiObjectException e) {
      fail(
          p,
          input.topOwner().kind()
              + " "
              + p.namespace()
              + "/"
              + input.topOwner().name()
              + ": "
              + e.getMessage());
      return;
    }
    problems.remove(p.key());
    inProgress.add(p.key());
    KaiPodGroup desired = PodGroupPlans.podGroup(plan);
    executor.execute(() -> write(p, desired, plan.podSubGroup()));
  }

  /** Records why the pod waits; a new reason is also an event on the pod. */
  private void fail(PodFacts p, String reason) {
    String message = "Pod " + p.key() + " cannot be grouped: " + reason;
    if (!message.equals(problems.put(p.key(), message))) {
      events.warning(ObjectRef.pod(p), WARNING, message);
    }
  }

  private void write(PodFacts p, KaiPodGroup desired, Optional<String> subGroup) {
    String name = desired.getMetadata().getName();
    try {
      KaiPodGroup existing = cache.podGroup(p.namespace(), name);
      if (existing == null) {
        writer.createPodGroup(desired);
      } else if (PodGroupPlans.sameOwner(existing, desired)
          && !PodGroupPlans.matches(existing, desired)) {
        writer.patchPodGroup(p.namespace(), name, update(desired));
      }
      ObjectNode patch = JSON.createObjectNode();
      ObjectNode meta = patch.putObject("metadata");
      meta.putObject("annotations").put(PodFacts.POD_GROUP_ANNOTATION, name);
      subGroup.ifPresent(s -> meta.putObject("labels").put(PodFacts.SUBGROUP_LABEL, s));
      writer.patchPod(p.namespace(), p.name(), patch.toString());
      if (subGroup.isEmpty()) {
        // with a SubGroup the snapshot must wait for the label, or it would read "default"
        assigned.put(p.key(), name);
      }
    } catch (ApiException e) {
      LOG.warn("grouping pod {}: HTTP {} {}", p.key(), e.getCode(), e.getResponseBody(), e);
    } catch (RuntimeException e) {
      // client-java reports a broken or interrupted response this way; the next cycle retries
      LOG.warn("grouping pod {}: {}", p.key(), e.toString());
    } finally {
      inProgress.remove(p.key());
    }
  }

  /** A merge patch that gives a PodGroup the planned spec, labels and annotations. */
  private static String update(KaiPodGroup desired) {
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    if (desired.getMetadata().getLabels() != null) {
      meta.set("labels", JSON.valueToTree(desired.getMetadata().getLabels()));
    }
    if (desired.getMetadata().getAnnotations() != null) {
      meta.set("annotations", JSON.valueToTree(desired.getMetadata().getAnnotations()));
    }
    ObjectNode spec = JSON.valueToTree(desired.spec());
    ObjectNode fields = patch.putObject("spec");
    // the fields the grouper owns: set, or removed when the plan has none
    for (String field :
        List.of(
            "minMember",
            "minSubGroup",
            "queue",
            "priorityClassName",
            "preemptibility",
            "topologyConstraint",
            "subGroups")) {
      fields.set(field, spec.get(field));
    }
    return patch.toString();
  }

  private static List<OwnerRef> ownerRefs(V1Pod pod) {
    List<V1OwnerReference> refs = pod.getMetadata().getOwnerReferences();
    if (refs == null) {
      return List.of();
    }
    return refs.stream()
        .map(
            r ->
                new OwnerRef(
                    r.getApiVersion(),
                    r.getKind(),
                    r.getName(),
                    Boolean.TRUE.equals(r.getController())))
        .toList();
  }
}
