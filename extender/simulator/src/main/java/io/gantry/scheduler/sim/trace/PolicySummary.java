package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.PlacementStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/** One policy's runs over every seed, with the mean and sample standard deviation at each x. */
public record PolicySummary(PlacementStrategy policy, ImmutableList<InflateResult> runs) {
  public PolicySummary {
    requireNonNull(policy, "policy is null");
    requireNonNull(runs, "runs is null");
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no runs for " + policy.k8sName());
    }
  }

  /** Mean and sample standard deviation (0 for one run). */
  public record Stat(double mean, double sd) {}

  /** The policies' summaries, in the order the policies were given. */
  public static ImmutableList<PolicySummary> of(
      List<PlacementStrategy> policies, List<InflateResult> results) {
    ImmutableList.Builder<PolicySummary> out = ImmutableList.builder();
    for (PlacementStrategy p : policies) {
      out.add(
          new PolicySummary(
              p,
              results.stream()
                  .filter(r -> r.policy() == p)
                  .collect(ImmutableList.toImmutableList())));
    }
    return out.build();
  }

  public int points() {
    return runs.get(0).curve().size();
  }

  public Stat unallocated(int percent) {
    return stat(r -> r.at(percent).unallocatedPercent());
  }

  /** Empty where x is not a gauge point. */
  public OptionalDouble fragmentationMean(int percent) {
    return mean(r -> r.at(percent).fragmentationPercent());
  }

  public OptionalDouble cpuBoundMean(int percent) {
    return mean(r -> r.at(percent).cpuBoundPercent());
  }

  public double secondsMean() {
    return stat(InflateResult::seconds).mean();
  }

  private OptionalDouble mean(java.util.function.Function<InflateResult, OptionalDouble> f) {
    if (f.apply(runs.get(0)).isEmpty()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(stat(r -> f.apply(r).orElseThrow()).mean());
  }

  private Stat stat(ToDoubleFunction<InflateResult> f) {
    List<Double> values = new ArrayList<>();
    for (InflateResult r : runs) {
      values.add(f.applyAsDouble(r));
    }
    double mean = values.stream().mapToDouble(Double::doubleValue).sum() / values.size();
    if (values.size() < 2) {
      return new Stat(mean, 0);
    }
    double squares = 0;
    for (double v : values) {
      squares += (v - mean) * (v - mean);
    }
    return new Stat(mean, Math.sqrt(squares / (values.size() - 1)));
  }
}
