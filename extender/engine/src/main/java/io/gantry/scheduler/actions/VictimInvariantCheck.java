package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.JobFitError;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.GpuSharingRequest;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether any eviction could help a job at all, checked before its victim search: every task to
 * place needs a node whose victim-invariant predicates pass (readiness, cordon, node affinity,
 * taints) and whose allocatable capacity — all it could hold were every pod evicted — covers the
 * task's request. When some task has none, the search is skipped and the job's fit message says
 * why, once per cycle.
 */
final class VictimInvariantCheck {
  private VictimInvariantCheck() {}

  /** True when the search may go ahead; otherwise the reason was recorded on the job. */
  static boolean passes(Session session, JobState job, List<TaskState> tasks) {
    Set<Shape> checked = new HashSet<>();
    for (TaskState task : tasks) {
      if (!checked.add(Shape.of(task))) {
        continue;
      }
      Optional<String> why = noNodeCouldEverFit(session, task);
      if (why.isPresent()) {
        String message =
            FitMessages.pod(
                task.info().namespace(),
                task.info().podName(),
                "no eviction can make room for it: " + why.get());
        JobFitError error = new JobFitError(JobFitError.POD_SCHEDULING_ERRORS, message);
        if (!job.fitErrors().contains(error)) {
          session.recordJobFitError(job, error);
        }
        return false;
      }
    }
    return true;
  }

  private static Optional<String> noNodeCouldEverFit(Session session, TaskState task) {
    NodeFitErrors errors = new NodeFitErrors();
    for (NodeState node : session.nodes()) {
      FitStatus status = session.hooks().filterVictimInvariant(task, node);
      if (!status.isSuccess()) {
        errors.add(status.message());
        continue;
      }
      Optional<String> capacity = exceedsAllocatable(task, node.info());
      if (capacity.isPresent()) {
        errors.add(capacity.get());
        continue;
      }
      return Optional.empty();
    }
    return Optional.of(errors.message(session.nodes().size()));
  }

  private static Optional<String> exceedsAllocatable(TaskState task, NodeInfo node) {
    Resources request = task.info().request();
    Resources allocatable = node.allocatable();
    if (request.gpus().compareTo(allocatable.gpus()) > 0) {
      return Optional.of(allocatableShort("GPUs"));
    }
    if (request.cpuMillis() > allocatable.cpuMillis()) {
      return Optional.of(allocatableShort("CPU cores"));
    }
    if (request.memoryBytes() > allocatable.memoryBytes()) {
      return Optional.of(allocatableShort("memory"));
    }
    for (var e : request.extended().entrySet()) {
      if (e.getValue() > allocatable.extended(e.getKey())) {
        return Optional.of(allocatableShort(e.getKey()));
      }
    }
    if (node.maxPods() < 1) {
      return Optional.of(allocatableShort("pods"));
    }
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    if (sharing.isPresent()) {
      if (node.gpuCount() < sharing.get().numDevices()) {
        return Optional.of(allocatableShort("GPUs"));
      }
      if (sharing.get().byMemory() && !node.gpuMemorySynced()) {
        return Optional.of("node(s) didn't have a synced GPU memory label");
      }
    }
    return Optional.empty();
  }

  private static String allocatableShort(String resource) {
    return "node(s) didn't have enough allocatable resources: " + resource;
  }

  /** Tasks of the same shape fit the same nodes: each shape is checked once. */
  private record Shape(
      Resources request, Optional<GpuSharingRequest> sharing, PodPlacementRequirements placement) {
    static Shape of(TaskState t) {
      return new Shape(t.info().request(), t.info().gpuSharing(), t.info().placement());
    }
  }
}
