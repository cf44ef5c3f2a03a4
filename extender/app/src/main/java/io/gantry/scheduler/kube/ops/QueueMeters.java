package io.gantry.scheduler.kube.ops;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * KAI's per-queue gauges, labels {@code queue_name}, {@code queue_metadata_name} and {@code
 * queue_display_name} (all the queue's name: Gantry's queues have no display name of their own):
 * the queue controller's {@code queue_info}, {@code queue_deserved_gpus}, {@code
 * queue_quota_cpu_cores}, {@code queue_quota_memory_bytes} (-1 unlimited) and {@code
 * queue_allocated_*}, and the scheduler's {@code queue_fair_share_*} and {@code queue_*_usage} (the
 * time-based fair share usage the cycle read, 0 without a usage database). Queues that are gone are
 * removed.
 */
public final class QueueMeters {
  private static final double BYTES_PER_GB = 1e9;
  private static final double MILLIS_PER_CORE = 1000;

  /** One queue as the last cycle left it. */
  record Sample(QueueInfo info, QueueOutcome outcome, ResourceVector usage) {
    Sample {
      requireNonNull(info, "info is null");
      requireNonNull(outcome, "outcome is null");
      requireNonNull(usage, "usage is null");
    }
  }

  /** A queue's latest sample, read by its gauges. */
  private static final class Holder {
    volatile Sample sample;
    final List<Meter> meters = new ArrayList<>();

    Holder(Sample sample) {
      this.sample = sample;
    }
  }

  private final MeterRegistry registry;
  private final String prefix;
  private final Map<String, Holder> queues = new ConcurrentHashMap<>();

  QueueMeters(MeterRegistry registry, String prefix) {
    this.registry = registry;
    this.prefix = prefix;
  }

  /**
   * Publishes the cycle's queues: their configuration, what the cycle left them ({@code outcomes},
   * by name) and the usage it read (by name; a queue missing used nothing).
   */
  public void publish(
      List<QueueInfo> infos, List<QueueOutcome> outcomes, Map<String, ResourceVector> usage) {
    Map<String, QueueOutcome> byName = new HashMap<>();
    outcomes.forEach(o -> byName.put(o.name(), o));
    Set<String> seen = new HashSet<>();
    for (QueueInfo info : infos) {
      QueueOutcome outcome = byName.get(info.name());
      if (outcome == null) {
        continue;
      }
      seen.add(info.name());
      Sample sample =
          new Sample(info, outcome, usage.getOrDefault(info.name(), ResourceVector.ZERO));
      Holder existing = queues.get(info.name());
      if (existing != null) {
        existing.sample = sample;
      } else {
        queues.put(info.name(), register(info.name(), new Holder(sample)));
      }
    }
    for (String gone : new ArrayList<>(queues.keySet())) {
      if (!seen.contains(gone)) {
        queues.remove(gone).meters.forEach(registry::remove);
      }
    }
  }

  private Holder register(String queue, Holder h) {
    Tags tags =
        Tags.of("queue_name", queue, "queue_metadata_name", queue, "queue_display_name", queue);
    gauge(h, tags, "queue_info", s -> 1);
    gauge(h, tags, "queue_deserved_gpus", s -> s.info().gpu().quota());
    gauge(h, tags, "queue_quota_cpu_cores", s -> cores(s.info().cpu()));
    gauge(h, tags, "queue_quota_memory_bytes", s -> s.info().memory().quota());
    gauge(h, tags, "queue_allocated_gpus", s -> s.outcome().allocated().gpus());
    gauge(
        h,
        tags,
        "queue_allocated_cpu_cores",
        s -> s.outcome().allocated().cpuMillis() / MILLIS_PER_CORE);
    gauge(h, tags, "queue_allocated_memory_bytes", s -> s.outcome().allocated().memoryBytes());
    gauge(h, tags, "queue_fair_share_gpu", s -> s.outcome().fairShare().gpus());
    gauge(
        h,
        tags,
        "queue_fair_share_cpu_cores",
        s -> s.outcome().fairShare().cpuMillis() / MILLIS_PER_CORE);
    gauge(
        h,
        tags,
        "queue_fair_share_memory_gb",
        s -> s.outcome().fairShare().memoryBytes() / BYTES_PER_GB);
    gauge(h, tags, "queue_gpu_usage", s -> s.usage().get(ResourceKind.GPU));
    gauge(h, tags, "queue_cpu_usage", s -> s.usage().get(ResourceKind.CPU));
    gauge(h, tags, "queue_memory_usage", s -> s.usage().get(ResourceKind.MEMORY));
    return h;
  }

  /** A CPU quota in cores; -1 (unlimited) stays -1. */
  private static double cores(QueueResource cpu) {
    return cpu.quota() == QueueResource.UNLIMITED ? cpu.quota() : cpu.quota() / MILLIS_PER_CORE;
  }

  private void gauge(Holder h, Tags tags, String name, ToDoubleFunction<Sample> value) {
    h.meters.add(
        Gauge.builder(prefix + name, h, x -> value.applyAsDouble(x.sample))
            .tags(tags)
            .register(registry));
  }
}
