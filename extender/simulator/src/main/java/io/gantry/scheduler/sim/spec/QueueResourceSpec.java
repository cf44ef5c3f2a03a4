package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import java.util.OptionalDouble;

/**
 * One resource of a queue, raw as in the Queue CRD: -1 means unlimited (quota, limit) or unset
 * (overQuotaWeight); a limit that is 0 or absent is a cap of 0.
 */
public record QueueResourceSpec(
    OptionalDouble quota, OptionalDouble overQuotaWeight, OptionalDouble limit) {
  public QueueResourceSpec {
    requireNonNull(quota, "quota is null");
    requireNonNull(overQuotaWeight, "overQuotaWeight is null");
    requireNonNull(limit, "limit is null");
  }
}
