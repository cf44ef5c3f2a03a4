package io.gantry.scheduler.kube.ops;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.api.result.QueueOutcome;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduler's Prometheus metrics, KAI's names (kai-reference §11) under the prefix {@code
 * gantry_}: {@code gantry_e2e_scheduling_latency_milliseconds} and {@code
 * gantry_task_bind_latency_milliseconds} (histograms), and per queue (label {@code queue_name})
 * {@code gantry_queue_fair_share_gpu}, {@code _cpu_cores}, {@code _memory_gb} and {@code
 * gantry_queue_gpu_usage}, {@code _cpu_usage} (cores), {@code _memory_usage} (GB, 10^9 bytes).
 */
public final class SchedulerMetrics {
  public static final String PREFIX = "gantry_";
  private static final double BYTES_PER_GB = 1e9;

  private final PrometheusMeterRegistry registry;
  private final DistributionSummary cycleLatency;
  private final DistributionSummary bindLatency;
  private final Map<String, QueueGauges> queues = new ConcurrentHashMap<>();

  /** One queue's latest values, read by its gauges. */
  private static final class QueueGauges {
    volatile QueueOutcome outcome;
    final List<Meter> meters = new ArrayList<>();

    QueueGauges(QueueOutcome outcome) {
      this.outcome = outcome;
    }
  }

  public SchedulerMetrics() {
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.cycleLatency =
        histogram("e2e_scheduling_latency", "one scheduling cycle, snapshot to decisions applied");
    this.bindLatency = histogram("task_bind_latency", "a bind, decision to binding created");
  }

  private DistributionSummary histogram(String name, String description) {
    return DistributionSummary.builder(PREFIX + name)
        .baseUnit("milliseconds")
        .description(description)
        .publishPercentileHistogram()
        .register(registry);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** The Prometheus text exposition of every metric. */
  public String scrape() {
    return registry.scrape();
  }

  public void cycle(double millis) {
    cycleLatency.record(millis);
  }

  public void bind(double millis) {
    bindLatency.record(millis);
  }

  /** Publishes each queue's fair share and usage after a cycle; queues gone are removed. */
  public void queues(List<QueueOutcome> outcomes) {
    Set<String> seen = new HashSet<>();
    for (QueueOutcome q : outcomes) {
      seen.add(q.name());
      QueueGauges existing = queues.get(q.name());
      if (existing != null) {
        existing.outcome = q;
        continue;
      }
      QueueGauges g = new QueueGauges(q);
      g.meters.add(gauge("queue_fair_share_gpu", q.name(), g, o -> o.fairShare().gpus()));
      g.meters.add(
          gauge("queue_fair_share_cpu_cores", q.name(), g, o -> o.fairShare().cpuMillis() / 1000));
      g.meters.add(
          gauge(
              "queue_fair_share_memory_gb",
              q.name(),
              g,
              o -> o.fairShare().memoryBytes() / BYTES_PER_GB));
      g.meters.add(gauge("queue_gpu_usage", q.name(), g, o -> o.allocated().gpus()));
      g.meters.add(gauge("queue_cpu_usage", q.name(), g, o -> o.allocated().cpuMillis() / 1000));
      g.meters.add(
          gauge(
              "queue_memory_usage", q.name(), g, o -> o.allocated().memoryBytes() / BYTES_PER_GB));
      queues.put(q.name(), g);
    }
    for (String gone : new ArrayList<>(queues.keySet())) {
      if (!seen.contains(gone)) {
        queues.remove(gone).meters.forEach(registry::remove);
      }
    }
  }

  private Meter gauge(
      String name,
      String queue,
      QueueGauges g,
      java.util.function.ToDoubleFunction<QueueOutcome> value) {
    requireNonNull(queue, "queue is null");
    return Gauge.builder(PREFIX + name, g, x -> value.applyAsDouble(x.outcome))
        .tag("queue_name", queue)
        .register(registry);
  }
}
