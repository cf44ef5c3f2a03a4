package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;

/**
 * Bind the task to the node, on these shared GPU groups with this per-device portion, after writing
 * {@code claimAllocations} (the task's DRA claims this cycle allocated or already held); {@code
 * gpuDevices} are the indices of the whole GPUs it gets on a node that names its GPUs (empty
 * elsewhere).
 */
public record BindDecision(
    String taskId,
    String nodeName,
    ImmutableList<String> gpuGroups,
    GpuAmount gpuPortion,
    ImmutableList<ClaimAllocation> claimAllocations,
    ImmutableList<Integer> gpuDevices)
    implements Decision {
  public BindDecision {
    requireNonNull(taskId, "taskId is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
    requireNonNull(claimAllocations, "claimAllocations is null");
    requireNonNull(gpuDevices, "gpuDevices is null");
  }

  /** A bind of a task without DRA claims, on a node that does not name its GPUs. */
  public BindDecision(
      String taskId, String nodeName, ImmutableList<String> gpuGroups, GpuAmount gpuPortion) {
    this(taskId, nodeName, gpuGroups, gpuPortion, ImmutableList.of(), ImmutableList.of());
  }

  @Override
  public Kind kind() {
    return Kind.BIND;
  }
}
