package io.gantry.gpusharing.inventory;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A GPU's health and, when it is unhealthy, why (one sentence per reason, in the order found).
 * Unhealthy exactly when there is a reason.
 */
public record GpuHealth(HealthStatus status, List<String> reasons) {
  public static final GpuHealth HEALTHY = new GpuHealth(HealthStatus.HEALTHY, List.of());

  public GpuHealth {
    requireNonNull(status, "status is null");
    reasons = List.copyOf(requireNonNull(reasons, "reasons is null"));
    if ((status == HealthStatus.UNHEALTHY) == reasons.isEmpty()) {
      throw new IllegalArgumentException(
          "a GPU is unhealthy exactly when it has reasons, got " + status + " " + reasons);
    }
  }

  /** HEALTHY with no reasons, otherwise UNHEALTHY with {@code reasons}. */
  public static GpuHealth fromReasons(List<String> reasons) {
    return reasons.isEmpty() ? HEALTHY : new GpuHealth(HealthStatus.UNHEALTHY, reasons);
  }
}
