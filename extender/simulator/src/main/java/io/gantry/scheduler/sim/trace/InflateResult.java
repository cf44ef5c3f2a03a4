package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.PlacementStrategy;

/** One policy on one seed's arrivals: its curve, how many arrivals it placed, how long it took. */
public record InflateResult(
    PlacementStrategy policy,
    long seed,
    int arrivals,
    int placed,
    ImmutableList<InflatePoint> curve,
    double seconds) {
  public InflateResult {
    requireNonNull(policy, "policy is null");
    requireNonNull(curve, "curve is null");
  }

  /** The point at {@code percent} arrived. */
  public InflatePoint at(int percent) {
    return curve.get(percent);
  }
}
