package io.gantry.scheduler.model;

/**
 * One resource of a queue in engine units (GPU devices, CPU millicores, memory bytes). {@code -1}
 * means unlimited for quota and limit; limit 0 is a cap of zero.
 */
public record QueueResource(double quota, double overQuotaWeight, double limit) {
  public static final double UNLIMITED = -1;

  public QueueResource {
    if (quota < -1 || limit < -1) {
      throw new IllegalArgumentException("quota and limit must be >= -1");
    }
    if (overQuotaWeight < 0) {
      throw new IllegalArgumentException("overQuotaWeight must be >= 0");
    }
  }
}
