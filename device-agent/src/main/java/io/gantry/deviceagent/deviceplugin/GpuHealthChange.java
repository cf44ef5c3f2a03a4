package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.HealthStatus;

/**
 * A known GPU's health changed: its status, or why it is unhealthy. {@code gpuIndex} is its index
 * in the latest discovery that listed it.
 */
public record GpuHealthChange(
    int gpuIndex, String gpuUuid, HealthStatus previousStatus, GpuHealth health) {
  public GpuHealthChange {
    requireNonNull(gpuUuid, "gpuUuid is null");
    requireNonNull(previousStatus, "previousStatus is null");
    requireNonNull(health, "health is null");
  }
}
