package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.GpuAmount;
import io.gantry.scheduler.model.TaskStatus;
import java.util.Optional;

/** Where a task is and what it holds there; {@code charge} is null when it holds nothing. */
record TaskPlacement(
    TaskStatus status,
    Optional<String> nodeName,
    ImmutableList<String> gpuGroups,
    GpuAmount gpuPortion,
    NodeCharge charge) {
  TaskPlacement {
    requireNonNull(status, "status is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
  }
}
