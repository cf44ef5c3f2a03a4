package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.Resources;

/**
 * What placing one task took from a node for its own request: from idle and from releasing
 * capacity. Shared GPU devices belong to their group, not to a task. Undo gives back exactly this.
 */
record NodeCharge(Resources fromIdle, Resources fromReleasing) {
  NodeCharge {
    requireNonNull(fromIdle, "fromIdle is null");
    requireNonNull(fromReleasing, "fromReleasing is null");
  }
}
