package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;

/** Bind the task to the node, on these shared GPU groups with this per-device portion. */
public record BindDecision(
    String taskId, String nodeName, ImmutableList<String> gpuGroups, GpuAmount gpuPortion)
    implements Decision {
  public BindDecision {
    requireNonNull(taskId, "taskId is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
  }

  @Override
  public Kind kind() {
    return Kind.BIND;
  }
}
