package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.kube.config.NodePool;

/**
 * Which objects of the cluster a snapshot is about: the pods whose {@code schedulerName} is {@code
 * schedulerName}, and the nodes and PodGroups of {@code pool}.
 */
public record SnapshotScope(String schedulerName, NodePool pool) {
  public SnapshotScope {
    requireNonNull(schedulerName, "schedulerName is null");
    requireNonNull(pool, "pool is null");
  }
}
