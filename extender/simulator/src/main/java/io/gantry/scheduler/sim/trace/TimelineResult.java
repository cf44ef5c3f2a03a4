package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.config.PlacementStrategy;

/**
 * One policy over a trace's timeline: allocated GPU (% of capacity) after each cycle that ran, each
 * placed task's queueing delay (seconds), how many tasks were never placed, how many cycles ran and
 * how long the replay took.
 */
public record TimelineResult(
    PlacementStrategy policy,
    ImmutableList<Sample> allocation,
    ImmutableList<Long> delaysSeconds,
    int tasks,
    int neverPlaced,
    int cycles,
    double seconds) {
  /** Allocated GPU after the cycle at {@code atSeconds} (trace time). */
  public record Sample(long atSeconds, double allocatedPercent) {}

  public TimelineResult {
    requireNonNull(policy, "policy is null");
    requireNonNull(allocation, "allocation is null");
    requireNonNull(delaysSeconds, "delaysSeconds is null");
  }

  /** Nearest-rank percentile of the delays; 0 when nothing was placed. */
  public long delayPercentile(int percent) {
    if (delaysSeconds.isEmpty()) {
      return 0;
    }
    long[] sorted = delaysSeconds.stream().mapToLong(Long::longValue).sorted().toArray();
    int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  public double neverPlacedPercent() {
    return tasks == 0 ? 0 : 100.0 * neverPlaced / tasks;
  }

  /** Allocation averaged over time (each sample held until the next). */
  public double meanAllocatedPercent() {
    if (allocation.size() < 2) {
      return allocation.isEmpty() ? 0 : allocation.get(0).allocatedPercent();
    }
    double area = 0;
    for (int i = 0; i + 1 < allocation.size(); i++) {
      area +=
          allocation.get(i).allocatedPercent()
              * (allocation.get(i + 1).atSeconds() - allocation.get(i).atSeconds());
    }
    long span = allocation.get(allocation.size() - 1).atSeconds() - allocation.get(0).atSeconds();
    return span == 0 ? allocation.get(0).allocatedPercent() : area / span;
  }
}
