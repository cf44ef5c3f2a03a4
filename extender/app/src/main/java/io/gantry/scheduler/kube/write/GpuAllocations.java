package io.gantry.scheduler.kube.write;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.TaskInfo;
import java.util.Optional;

/**
 * The one place that turns a placement into the {@link GpuAllocation} a bound pod carries, for the
 * secondary scheduler's {@link Binder} and the HTTP extender alike: a shared-GPU task gets its
 * groups, per-device portion and compute mode, a whole-GPU task its device count and, on a node
 * that publishes its NVLink domains, the devices the engine chose ({@code gpuDevices}), a task
 * without GPUs nothing.
 */
public final class GpuAllocations {
  private GpuAllocations() {}

  public static Optional<GpuAllocation> of(
      TaskInfo task,
      String node,
      ImmutableList<String> gpuGroups,
      GpuAmount portion,
      ImmutableList<Integer> gpuDevices) {
    if (task.gpuSharing().isPresent()) {
      return Optional.of(
          GpuAllocation.shared(node, portion, task.gpuSharing().get().computeMode(), gpuGroups));
    }
    if (task.request().gpus().isPositive()) {
      int count = Math.toIntExact(task.request().gpus().wholeDevices());
      return Optional.of(
          gpuDevices.size() == count
              ? GpuAllocation.wholeChosen(node, gpuDevices)
              : GpuAllocation.whole(node, count));
    }
    return Optional.empty();
  }
}
