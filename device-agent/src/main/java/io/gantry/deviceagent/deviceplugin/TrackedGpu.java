package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.HealthStatus;
import java.util.List;
import java.util.OptionalInt;

/**
 * A GPU this node has had since the agent started, its index in the latest discovery that listed
 * it, and its health now.
 */
record TrackedGpu(String uuid, int index, GpuHealth health, OptionalInt numaNode) {
  TrackedGpu {
    requireNonNull(uuid, "uuid is null");
    requireNonNull(health, "health is null");
    requireNonNull(numaNode, "numaNode is null");
  }

  boolean healthy() {
    return health.status() == HealthStatus.HEALTHY;
  }

  /** This GPU unhealthy for {@code reason}. */
  TrackedGpu unhealthy(String reason) {
    return new TrackedGpu(
        uuid, index, new GpuHealth(HealthStatus.UNHEALTHY, List.of(reason)), numaNode);
  }
}
