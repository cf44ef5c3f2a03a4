package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.TaskStatus;
import java.util.Optional;

/**
 * Where a task is and what it holds there; {@code charge} is null when it holds nothing. A task
 * evicted in this session and pipelined onto another node keeps {@code evictedFrom}: its pod still
 * releases its old place (KAI keeps the evicted pod on its node while the replacement waits
 * elsewhere).
 */
record TaskPlacement(
    TaskStatus status,
    Optional<String> nodeName,
    ImmutableList<String> gpuGroups,
    GpuAmount gpuPortion,
    NodeCharge charge,
    Optional<TaskPlacement> evictedFrom) {
  TaskPlacement {
    requireNonNull(status, "status is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
    requireNonNull(evictedFrom, "evictedFrom is null");
  }

  TaskPlacement(
      TaskStatus status,
      Optional<String> nodeName,
      ImmutableList<String> gpuGroups,
      GpuAmount gpuPortion,
      NodeCharge charge) {
    this(status, nodeName, gpuGroups, gpuPortion, charge, Optional.empty());
  }

  static TaskPlacement nowhere() {
    return new TaskPlacement(
        TaskStatus.PENDING, Optional.empty(), ImmutableList.of(), GpuAmount.ZERO, null);
  }
}
