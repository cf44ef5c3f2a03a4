package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.scheduler.kube.config.NodePool;

/**
 * Which objects of the cluster a snapshot is about: the pods whose {@code schedulerName} is {@code
 * schedulerName}, and the nodes and PodGroups of {@code pool}. With {@code gpuSharing} {@link
 * GpuSharingMode#RESERVATION_PODS} a pending fraction pod takes part only once the admission
 * webhook has named its environment ConfigMap (the binder confines it to its GPU through it).
 */
public record SnapshotScope(String schedulerName, NodePool pool, GpuSharingMode gpuSharing) {
  public SnapshotScope {
    requireNonNull(schedulerName, "schedulerName is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(gpuSharing, "gpuSharing is null");
  }
}
