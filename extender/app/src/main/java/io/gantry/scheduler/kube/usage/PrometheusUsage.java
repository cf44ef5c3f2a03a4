package io.gantry.scheduler.kube.usage;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.config.UsageDbSpec;
import io.gantry.kubemodel.config.UsageSpec;
import io.gantry.scheduler.kube.usage.PrometheusClient.Sample;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Each queue's usage from Prometheus (kai-reference §5.4): per resource, the windowed sum of the
 * queue's allocation metric (label {@code queue_name}) divided by the same windowed sum of the
 * cluster's capacity, with KAI's metrics and queries: {@code
 * sum_over_time((M)[window:resolution])}, each sample weighted {@code 0.5^((now - time()) /
 * halfLife)} when a half-life is set. A sliding window ends now; a tumbling one starts at the last
 * reset, {@code tumblingWindowStartTime + n × windowSize}.
 *
 * <p>A resource whose capacity Prometheus does not know (no GPUs in the cluster) or sums to zero
 * gives every queue a usage of zero in it; a queue without an allocation series has used nothing.
 * Two series of one queue (two exporters) count once: the larger is taken.
 */
public final class PrometheusUsage {
  /** KAI's label of the queue on the allocation metrics. */
  public static final String QUEUE_LABEL = "queue_name";

  private static final ImmutableMap<ResourceKind, String> ALLOCATION =
      ImmutableMap.of(
          ResourceKind.GPU, "kai_queue_allocated_gpus",
          ResourceKind.CPU, "kai_queue_allocated_cpu_cores",
          ResourceKind.MEMORY, "kai_queue_allocated_memory_bytes");
  private static final ImmutableMap<ResourceKind, String> CAPACITY =
      ImmutableMap.of(
          ResourceKind.GPU, "sum(kube_node_status_capacity{resource=\"nvidia_com_gpu\"})",
          ResourceKind.CPU, "sum(kube_node_status_capacity{resource=\"cpu\"})",
          ResourceKind.MEMORY, "sum(kube_node_status_capacity{resource=\"memory\"})");

  private final PrometheusClient client;
  private final UsageDbSpec spec;
  private final Map<ResourceKind, String> allocation = new EnumMap<>(ResourceKind.class);
  private final Map<ResourceKind, String> capacity = new EnumMap<>(ResourceKind.class);

  public PrometheusUsage(PrometheusClient client, UsageDbSpec spec) {
    this.client = requireNonNull(client, "client is null");
    this.spec = requireNonNull(spec, "spec is null");
    for (ResourceKind r : ResourceKind.values()) {
      allocation.put(
          r, spec.metrics().getOrDefault(r.key() + "AllocationMetric", ALLOCATION.get(r)));
      capacity.put(r, spec.metrics().getOrDefault(r.key() + "CapacityMetric", CAPACITY.get(r)));
    }
  }

  /** Each queue's usage at {@code now}, 0..1 per resource; empty at the start of a window. */
  public ImmutableSortedMap<String, ResourceVector> fetch(Instant now) throws IOException {
    Optional<Duration> window = window(now);
    if (window.isEmpty()) {
      return ImmutableSortedMap.of();
    }
    Map<String, ResourceVector> usage = new TreeMap<>();
    for (ResourceKind r : ResourceKind.values()) {
      double total = 0;
      for (Sample s : client.query(windowed(capacity.get(r), window.get(), now), now)) {
        if (Double.isFinite(s.value())) {
          total += s.value();
        }
      }
      if (total <= 0) {
        continue;
      }
      Map<String, Double> used = new TreeMap<>();
      for (Sample s : client.query(windowed(allocation.get(r), window.get(), now), now)) {
        String queue = s.labels().get(QUEUE_LABEL);
        if (queue != null && Double.isFinite(s.value())) {
          used.merge(queue, s.value(), Math::max);
        }
      }
      for (Map.Entry<String, Double> e : used.entrySet()) {
        usage.merge(
            e.getKey(),
            ResourceVector.ZERO.with(r, Math.max(0, e.getValue() / total)),
            (a, b) -> a.with(r, b.get(r)));
      }
    }
    return ImmutableSortedMap.copyOf(usage);
  }

  /** How far back the sums reach at {@code now}; empty when a tumbling window just restarted. */
  Optional<Duration> window(Instant now) {
    if (spec.windowType() == UsageSpec.WindowType.SLIDING) {
      return Optional.of(spec.windowSize());
    }
    Instant origin = spec.tumblingWindowStartTime().orElse(Instant.EPOCH);
    long size = spec.windowSize().toMillis();
    long since = Duration.between(origin, now).toMillis();
    long intoWindow = Math.floorMod(since, size);
    return intoWindow == 0 ? Optional.empty() : Optional.of(Duration.ofMillis(intoWindow));
  }

  private String windowed(String metric, Duration window, Instant now) {
    String expression = metric;
    if (!spec.halfLifePeriod().isZero()) {
      expression =
          "(("
              + metric
              + ") * (0.5^(("
              + PrometheusClient.seconds(now)
              + " - time()) / "
              + PrometheusClient.seconds(Instant.EPOCH.plus(spec.halfLifePeriod()))
              + ")))";
    }
    return "sum_over_time(("
        + expression
        + ")["
        + window.toMillis()
        + "ms:"
        + spec.queryResolution().toMillis()
        + "ms])";
  }
}
