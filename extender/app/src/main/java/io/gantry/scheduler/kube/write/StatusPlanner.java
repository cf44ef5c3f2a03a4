package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.kubemodel.kai.PodGroupLifecycle;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiResourcesStatus;
import io.gantry.scheduler.kube.crd.KaiSchedulingCondition;
import io.gantry.scheduler.kube.crd.KaiUnschedulableReason;
import io.gantry.scheduler.kube.snapshot.KubeQuantities;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.snapshot.PodGroupReader;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.JobLifecycle;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a cycle means for the status of the cluster's objects, in KAI's words (kai-reference §1.4,
 * §1.5, §2.2, §11), as values; {@link StatusWriter} writes what changed.
 *
 * <ul>
 *   <li>A waiting pod of a PodGroup with {@code markUnschedulable} (default true) gets {@code
 *       PodScheduled=False}, reason {@code Unschedulable}, its fit message; a pod that cannot be
 *       scheduled as written gets it whatever the PodGroup says.
 *   <li>A PodGroup gets the {@code UnschedulableOnNodePool} scheduling condition when it has a fit
 *       message and no task is active-allocated; the condition goes once no task is pending and
 *       none awaits binding; otherwise it stays as it is. {@code resourcesStatus}: allocated
 *       (Binding, Bound, Running), the non-preemptible part of that, and requested (every alive
 *       task), GPUs of shared tasks as portion × devices.
 *   <li>A PodGroup carries the lifecycle the cycle left its job with as KAI's annotations (last
 *       start, last eviction, stale since), so the next scheduler to lead reads them back.
 *   <li>A Queue gets {@code allocated} and {@code allocatedNonPreemptible} from the cycle and
 *       {@code requested} summed over the PodGroups of its subtree.
 * </ul>
 */
final class StatusPlanner {
  static final String UNSCHEDULABLE_ON_NODE_POOL = "UnschedulableOnNodePool";

  private StatusPlanner() {}

  record PodCondition(PodFacts pod, String message) {
    PodCondition {
      requireNonNull(pod, "pod is null");
      requireNonNull(message, "message is null");
    }
  }

  /**
   * A PodGroup's desired status; {@code conditions} empty means "leave them as they are". A value:
   * equal statuses make the same write, so the writer compares them with what it queued last.
   */
  record PodGroupStatus(
      String namespace,
      String name,
      Optional<List<KaiSchedulingCondition>> conditions,
      PodGroupResources resources) {
    PodGroupStatus {
      requireNonNull(namespace, "namespace is null");
      requireNonNull(name, "name is null");
      requireNonNull(conditions, "conditions is null");
      requireNonNull(resources, "resources is null");
    }
  }

  /**
   * A PodGroup's {@code resourcesStatus} as amounts; {@link #toKai} spells them as resource lists,
   * which only a write or a comparison with the cached PodGroup needs (most cycles plan the same
   * amounts again and compare numbers).
   */
  record PodGroupResources(
      ResourceVector allocated, ResourceVector allocatedNonPreemptible, ResourceVector requested) {
    PodGroupResources {
      requireNonNull(allocated, "allocated is null");
      requireNonNull(allocatedNonPreemptible, "allocatedNonPreemptible is null");
      requireNonNull(requested, "requested is null");
    }

    KaiResourcesStatus toKai() {
      return new KaiResourcesStatus(
          list(allocated), list(allocatedNonPreemptible), list(requested));
    }
  }

  /**
   * The lifecycle a PodGroup should carry after the cycle; {@link #annotations} spells it as KAI's
   * annotations, which only a write or a comparison with the cached PodGroup needs.
   */
  record PodGroupAnnotations(String namespace, String name, JobLifecycle lifecycle) {
    PodGroupAnnotations {
      requireNonNull(namespace, "namespace is null");
      requireNonNull(name, "name is null");
      requireNonNull(lifecycle, "lifecycle is null");
    }

    /** {@link PodGroupLifecycle#annotations}: an empty value means the annotation should go. */
    ImmutableSortedMap<String, Optional<String>> annotations() {
      return PodGroupLifecycle.annotations(lifecycle);
    }
  }

  record QueueStatus(
      String name,
      Map<String, String> allocated,
      Map<String, String> allocatedNonPreemptible,
      Map<String, String> requested) {}

  record Plan(
      ImmutableList<PodCondition> pods,
      ImmutableList<PodGroupStatus> podGroups,
      ImmutableList<PodGroupAnnotations> lifecycles,
      ImmutableList<QueueStatus> queues) {}

  static Plan plan(LiveSnapshot live, CycleResult result, NodePool pool) {
    Map<String, JobInfo> jobs = new HashMap<>();
    for (JobInfo j : live.snapshot().jobs()) {
      jobs.put(j.id(), j);
    }
    long minGpuMemory =
        live.snapshot().nodes().stream()
            .filter(n -> n.gpuCount() > 0 && n.gpuMemoryMib() > 0)
            .mapToLong(NodeInfo::gpuMemoryMib)
            .min()
            .orElse(0);
    ImmutableList.Builder<PodCondition> pods = ImmutableList.builder();
    ImmutableList.Builder<PodGroupStatus> groups = ImmutableList.builder();
    ImmutableList.Builder<PodGroupAnnotations> lifecycles = ImmutableList.builder();
    Map<String, ResourceVector> requestedByQueue = new HashMap<>();
    Map<String, Optional<List<KaiSchedulingCondition>>> unschedulable = new HashMap<>();
    for (JobOutcome outcome : result.jobs()) {
      JobInfo job = jobs.get(outcome.jobId());
      KaiPodGroup pg = live.podGroups().get(outcome.jobId());
      if (job == null || pg == null) {
        continue;
      }
      String namespace = pg.getMetadata().getNamespace();
      String name = pg.getMetadata().getName();
      lifecycles.add(new PodGroupAnnotations(namespace, name, outcome.lifecycle()));
      Map<String, TaskInfo> tasks = new HashMap<>();
      job.tasks().forEach(t -> tasks.put(t.id(), t));
      boolean mark = PodGroupReader.markUnschedulable(pg);
      boolean anyActive = false;
      boolean anyPending = false;
      boolean anyBinding = false;
      ResourceVector allocated = ResourceVector.ZERO;
      ResourceVector requested = ResourceVector.ZERO;
      for (TaskOutcome t : outcome.tasks()) {
        TaskInfo info = tasks.get(t.taskId());
        anyActive |= t.status().isActiveAllocated();
        anyPending |= t.status() == TaskStatus.PENDING || t.status() == TaskStatus.GATED;
        anyBinding |= t.status() == TaskStatus.BINDING;
        if (info == null) {
          continue;
        }
        if (mark && t.status() == TaskStatus.PENDING && t.fitMessage().isPresent()) {
          PodFacts pod = live.pods().get(t.taskId());
          if (pod != null) {
            pods.add(new PodCondition(pod, t.fitMessage().get()));
          }
        }
        if (t.status().isAlive()) {
          requested = requested.plus(vector(info, minGpuMemory));
        }
        if (t.status().isAllocated()) {
          allocated = allocated.plus(vector(info, minGpuMemory));
        }
      }
      Optional<List<KaiSchedulingCondition>> conditions = Optional.empty();
      if (outcome.fitMessage().isPresent() && !anyActive) {
        // most waiting PodGroups of a large cluster share a handful of messages
        conditions =
            unschedulable.computeIfAbsent(
                outcome.fitMessage().get(), m -> Optional.of(List.of(condition(m, pool))));
      } else if (!anyPending && !anyBinding) {
        conditions = Optional.of(List.of());
      }
      groups.add(
          new PodGroupStatus(
              namespace,
              name,
              conditions,
              new PodGroupResources(
                  allocated, job.preemptible() ? ResourceVector.ZERO : allocated, requested)));
      requestedByQueue.merge(job.queue(), requested, ResourceVector::plus);
    }
    for (LiveSnapshot.Problem p : live.unschedulablePods()) {
      PodFacts pod = live.pods().get(p.key());
      if (pod != null) {
        pods.add(new PodCondition(pod, p.message()));
      }
    }
    return new Plan(
        pods.build(), groups.build(), lifecycles.build(), queues(live, result, requestedByQueue));
  }

  private static ImmutableList<QueueStatus> queues(
      LiveSnapshot live, CycleResult result, Map<String, ResourceVector> requestedByLeaf) {
    Map<String, Optional<String>> parents = new HashMap<>();
    for (QueueInfo q : live.snapshot().queues()) {
      parents.put(q.name(), q.parent());
    }
    Map<String, ResourceVector> requested = new HashMap<>();
    requestedByLeaf.forEach(
        (leaf, amount) -> {
          Optional<String> at = parents.containsKey(leaf) ? Optional.of(leaf) : Optional.empty();
          while (at.isPresent()) {
            requested.merge(at.get(), amount, ResourceVector::plus);
            at = parents.getOrDefault(at.get(), Optional.empty());
          }
        });
    ImmutableList.Builder<QueueStatus> out = ImmutableList.builder();
    for (QueueOutcome q : result.queues()) {
      out.add(
          new QueueStatus(
              q.name(),
              list(q.allocated()),
              list(q.allocatedNonPreemptible()),
              list(requested.getOrDefault(q.name(), ResourceVector.ZERO))));
    }
    return out.build();
  }

  private static ResourceVector vector(TaskInfo t, long minGpuMemory) {
    GpuAmount gpus = t.request().gpus();
    if (t.gpuSharing().isPresent()) {
      gpus =
          t.gpuPortion().isPositive()
              ? t.gpuSharing().get().quotaGpusAt(t.gpuPortion())
              : t.gpuSharing().get().quotaGpusOn(minGpuMemory);
    }
    return new ResourceVector(gpus.toDouble(), t.request().cpuMillis(), t.request().memoryBytes());
  }

  private static Map<String, String> list(ResourceVector v) {
    return KubeQuantities.resourceList(v.cpuMillis(), v.memoryBytes(), v.gpus());
  }

  static KaiSchedulingCondition condition(String message, NodePool pool) {
    int colon = message.indexOf(": ");
    String head = colon > 0 ? message.substring(0, colon) : "";
    String reason = !head.isEmpty() && !head.contains(" ") ? head : "PodSchedulingErrors";
    return new KaiSchedulingCondition(
        UNSCHEDULABLE_ON_NODE_POOL,
        pool.name(),
        "Unschedulable",
        message,
        List.of(new KaiUnschedulableReason(reason, message)),
        "True",
        null,
        null);
  }
}
