package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

/**
 * Which objects of the cluster a snapshot is about: the pods whose {@code schedulerName} is {@code
 * schedulerName}, and the nodes and PodGroups of {@code pool}.
 */
record SnapshotScope(String schedulerName, NodePool pool) {
  SnapshotScope {
    requireNonNull(schedulerName, "schedulerName is null");
    requireNonNull(pool, "pool is null");
  }
}
