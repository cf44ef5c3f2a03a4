package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;

/**
 * The task will go to the node once releasing resources there are free; no bind yet. {@code
 * gpuDevices} as in {@link BindDecision}.
 */
public record PipelineDecision(
    String taskId,
    String nodeName,
    ImmutableList<String> gpuGroups,
    GpuAmount gpuPortion,
    ImmutableList<Integer> gpuDevices)
    implements Decision {
  public PipelineDecision {
    requireNonNull(taskId, "taskId is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
    requireNonNull(gpuDevices, "gpuDevices is null");
  }

  /** A decision on a node that does not name its GPUs. */
  public PipelineDecision(
      String taskId, String nodeName, ImmutableList<String> gpuGroups, GpuAmount gpuPortion) {
    this(taskId, nodeName, gpuGroups, gpuPortion, ImmutableList.of());
  }

  @Override
  public Kind kind() {
    return Kind.PIPELINE;
  }
}
