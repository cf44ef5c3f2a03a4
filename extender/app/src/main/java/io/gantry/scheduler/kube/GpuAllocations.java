package io.gantry.scheduler.kube;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.GpuAmount;
import io.gantry.scheduler.model.TaskInfo;
import java.util.Optional;

/**
 * The one place that turns a placement into the {@link GpuAllocation} a bound pod carries, for the
 * secondary scheduler's {@link Binder} and the HTTP extender alike: a shared-GPU task gets its
 * groups and per-device portion, a whole-GPU task its device count at portion 1, a task without
 * GPUs nothing.
 */
final class GpuAllocations {
  private GpuAllocations() {}

  static Optional<GpuAllocation> of(
      TaskInfo task, String node, ImmutableList<String> gpuGroups, GpuAmount portion) {
    if (task.gpuSharing().isPresent()) {
      return Optional.of(
          new GpuAllocation(node, task.gpuSharing().get().numDevices(), portion, gpuGroups));
    }
    if (task.request().gpus().isPositive()) {
      return Optional.of(
          new GpuAllocation(
              node,
              Math.toIntExact(task.request().gpus().wholeDevices()),
              GpuAmount.ofDevices(1),
              ImmutableList.of()));
    }
    return Optional.empty();
  }
}
