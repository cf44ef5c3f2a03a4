package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.TaskInfo;
import java.time.Instant;

/**
 * Capacity the engine planned for one pod of a gang, promised to it until {@code expiresAt}: no
 * other pod is offered it meanwhile. {@code barrier} is shared by the members planned together.
 */
record Reservation(TaskInfo task, PlannedNode placement, GangBarrier barrier, Instant expiresAt) {
  Reservation {
    requireNonNull(task, "task is null");
    requireNonNull(placement, "placement is null");
    requireNonNull(barrier, "barrier is null");
    requireNonNull(expiresAt, "expiresAt is null");
  }

  String podKey() {
    return Snapshots.podKey(task);
  }
}
