package io.gantry.scheduler.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.config.UsageSpec;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Time-based fair share's usage (kai-reference §5.4) from the simulated allocation history: each
 * cycle records every queue's allocation and the cluster's capacity at its time; a queue's usage
 * is, per resource, the sum of its allocation over the window divided by the sum of the capacity
 * over the window, each sample weighted {@code 0.5^(age / halfLifePeriod)} when a half-life is set.
 * A sliding window ends now; a tumbling one restarts every {@code windowSize} from {@code
 * tumblingWindowStartTime}.
 */
final class UsageHistory implements UsageSource {
  private final UsageSpec spec;
  private final Instant start;
  private final ResourceVector capacity;
  private final List<Sample> samples = new ArrayList<>();

  private record Sample(Instant at, Map<String, ResourceVector> allocated) {}

  UsageHistory(UsageSpec spec, Instant start, List<NodeInfo> nodes) {
    this.spec = requireNonNull(spec, "spec is null");
    this.start = requireNonNull(start, "start is null");
    ResourceVector total = ResourceVector.ZERO;
    for (NodeInfo n : nodes) {
      if (n.ready()) {
        total = total.plus(ResourceVector.of(n.allocatable()));
      }
    }
    this.capacity = total;
  }

  /** What a cycle at {@code at} left each queue holding. */
  void record(Instant at, CycleResult result) {
    Map<String, ResourceVector> allocated = new TreeMap<>();
    for (QueueOutcome q : result.queues()) {
      allocated.put(q.name(), q.allocated());
    }
    samples.add(new Sample(at, allocated));
  }

  @Override
  public ImmutableSortedMap<String, ResourceVector> usage(Instant now) {
    Instant from = windowStart(now);
    Map<String, ResourceVector> used = new TreeMap<>();
    ResourceVector capacitySum = ResourceVector.ZERO;
    for (Sample s : samples) {
      if (s.at().isBefore(from) || !s.at().isBefore(now)) {
        continue;
      }
      double w = weight(Duration.between(s.at(), now));
      capacitySum = capacitySum.plus(scaled(capacity, w));
      for (Map.Entry<String, ResourceVector> e : s.allocated().entrySet()) {
        used.merge(e.getKey(), scaled(e.getValue(), w), ResourceVector::plus);
      }
    }
    ImmutableSortedMap.Builder<String, ResourceVector> out = ImmutableSortedMap.naturalOrder();
    for (Map.Entry<String, ResourceVector> e : used.entrySet()) {
      ResourceVector ratio = ResourceVector.ZERO;
      for (ResourceKind r : ResourceKind.values()) {
        double cap = capacitySum.get(r);
        ratio = ratio.with(r, cap > 0 ? e.getValue().get(r) / cap : 0);
      }
      out.put(e.getKey(), ratio);
    }
    return out.build();
  }

  private Instant windowStart(Instant now) {
    if (spec.windowType() == UsageSpec.WindowType.SLIDING) {
      return now.minus(spec.windowSize());
    }
    Instant origin = start.plus(spec.tumblingWindowStartTime());
    if (now.isBefore(origin)) {
      return origin;
    }
    long windows = Duration.between(origin, now).toNanos() / spec.windowSize().toNanos();
    return origin.plus(spec.windowSize().multipliedBy(windows));
  }

  private double weight(Duration age) {
    if (spec.halfLifePeriod().isZero()) {
      return 1;
    }
    return Math.pow(0.5, (double) age.toNanos() / spec.halfLifePeriod().toNanos());
  }

  private static ResourceVector scaled(ResourceVector v, double w) {
    return new ResourceVector(v.gpus() * w, v.cpuMillis() * w, v.memoryBytes() * w);
  }
}
