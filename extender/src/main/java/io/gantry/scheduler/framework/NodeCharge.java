package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.Resources;

/**
 * What placing one task took from a node: from idle and from releasing capacity (whole GPUs for
 * newly opened shared groups included), and which groups it opened. Undo gives back exactly this.
 */
record NodeCharge(Resources fromIdle, Resources fromReleasing, ImmutableList<String> openedGroups) {
  NodeCharge {
    requireNonNull(fromIdle, "fromIdle is null");
    requireNonNull(fromReleasing, "fromReleasing is null");
    requireNonNull(openedGroups, "openedGroups is null");
  }
}
