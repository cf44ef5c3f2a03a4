package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.Resources;

/**
 * What placing one task took from a node for its own request: from idle and from releasing
 * capacity, and on a node that names its GPUs the indices of the whole devices it holds. Shared GPU
 * devices belong to their group, not to a task. Undo gives back exactly this.
 */
record NodeCharge(Resources fromIdle, Resources fromReleasing, ImmutableList<Integer> gpuDevices) {
  NodeCharge {
    requireNonNull(fromIdle, "fromIdle is null");
    requireNonNull(fromReleasing, "fromReleasing is null");
    requireNonNull(gpuDevices, "gpuDevices is null");
  }
}
