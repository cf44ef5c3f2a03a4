package io.gantry.gpusharing.inventory;

/** Whether a GPU can be handed to workloads. */
public enum HealthStatus {
  HEALTHY,
  UNHEALTHY
}
