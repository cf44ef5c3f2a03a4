package io.gantry.scheduler.actions;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.AllocatableTooSmall;
import io.gantry.scheduler.framework.fit.GpuMemoryNotSynced;
import io.gantry.scheduler.framework.fit.NoEvictionCanHelp;
import io.gantry.scheduler.framework.fit.NoNodeFits;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.ResourceNames;
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
      Optional<NoNodeFits> why = noNodeCouldEverFit(session, task);
      if (why.isPresent()) {
        NoEvictionCanHelp error =
            new NoEvictionCanHelp(task.info().namespace(), task.info().podName(), why.get());
        if (!job.fitErrors().contains(error)) {
          session.recordJobFitError(job, error);
        }
        return false;
      }
    }
    return true;
  }

  private static Optional<NoNodeFits> noNodeCouldEverFit(Session session, TaskState task) {
    ImmutableList.Builder<NoNodeFits.NodeRejection> rejections = ImmutableList.builder();
    for (NodeState node : session.nodes()) {
      FitStatus status = session.hooks().filterVictimInvariant(task, node);
      if (!status.isSuccess()) {
        rejections.add(new NoNodeFits.NodeRejection(node.name(), status.reasons()));
        continue;
      }
      Optional<NodeFitReason> capacity = exceedsAllocatable(task, node.info());
      if (capacity.isPresent()) {
        rejections.add(new NoNodeFits.NodeRejection(node.name(), ImmutableList.of(capacity.get())));
        continue;
      }
      return Optional.empty();
    }
    return Optional.of(new NoNodeFits(session.nodes().size(), rejections.build()));
  }

  private static Optional<NodeFitReason> exceedsAllocatable(TaskState task, NodeInfo node) {
    Resources request = task.info().request();
    Resources allocatable = node.allocatable();
    if (request.gpus().compareTo(allocatable.gpus()) > 0) {
      return Optional.of(new AllocatableTooSmall(ResourceNames.GPU));
    }
    if (request.cpuMillis() > allocatable.cpuMillis()) {
      return Optional.of(new AllocatableTooSmall(ResourceNames.CPU));
    }
    if (request.memoryBytes() > allocatable.memoryBytes()) {
      return Optional.of(new AllocatableTooSmall(ResourceNames.MEMORY));
    }
    for (var e : request.extended().entrySet()) {
      if (e.getValue() > allocatable.extended(e.getKey())) {
        return Optional.of(new AllocatableTooSmall(e.getKey()));
      }
    }
    if (node.maxPods() < 1) {
      return Optional.of(new AllocatableTooSmall("pods"));
    }
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    if (sharing.isPresent()) {
      if (node.gpuCount() < sharing.get().numDevices()) {
        return Optional.of(new AllocatableTooSmall(ResourceNames.GPU));
      }
      if (sharing.get().byMemory() && !node.gpuMemorySynced()) {
        return Optional.of(new GpuMemoryNotSynced());
      }
    }
    return Optional.empty();
  }

  /** Tasks of the same shape fit the same nodes: each shape is checked once. */
  private record Shape(
      Resources request, Optional<GpuSharingRequest> sharing, PodPlacementRequirements placement) {
    static Shape of(TaskState t) {
      return new Shape(t.info().request(), t.info().gpuSharing(), t.info().placement());
    }
  }
}
