package io.gantry.scheduler.kube.ops;

import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.PendingReason;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.model.TaskStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gantry's {@code pending_pods} gauge, labels {@code queue} and {@code reason} ({@link
 * PendingReason}): the pods the last cycle left waiting (Pending or Gated). A combination no pod
 * has any more is removed rather than left at 0.
 */
public final class PendingPodMeters {
  private record Key(String queue, String reason) {}

  private final MeterRegistry registry;
  private final String prefix;
  private final Map<Key, AtomicLong> counts = new ConcurrentHashMap<>();
  private final Map<Key, Meter> meters = new ConcurrentHashMap<>();

  PendingPodMeters(MeterRegistry registry, String prefix) {
    this.registry = registry;
    this.prefix = prefix;
  }

  /**
   * Counts the waiting tasks of {@code jobs}, each under its job's queue ({@code queueOfJob}: job
   * id to queue name; a job missing counts under {@code ""}). Returns how many waiting tasks carry
   * a fit message: the pods a cycle tried and could not place.
   */
  public long publish(List<JobOutcome> jobs, Map<String, String> queueOfJob) {
    Map<Key, Long> now = new HashMap<>();
    long unschedulable = 0;
    for (JobOutcome job : jobs) {
      String queue = queueOfJob.getOrDefault(job.jobId(), "");
      for (TaskOutcome t : job.tasks()) {
        if (t.status() != TaskStatus.PENDING && t.status() != TaskStatus.GATED) {
          continue;
        }
        if (t.fitMessage().isPresent()) {
          unschedulable++;
        }
        PendingReason reason = PendingReason.of(t.status(), t.fitMessage());
        now.merge(new Key(queue, reason.label()), 1L, Long::sum);
      }
    }
    now.forEach(
        (key, count) ->
            counts
                .computeIfAbsent(
                    key,
                    k -> {
                      AtomicLong value = new AtomicLong();
                      meters.put(
                          k,
                          Gauge.builder(prefix + "pending_pods", value, AtomicLong::get)
                              .description("pods the last cycle left pending, by queue and reason")
                              .tags(Tags.of("queue", k.queue(), "reason", k.reason()))
                              .register(registry));
                      return value;
                    })
                .set(count));
    for (Key gone : new ArrayList<>(counts.keySet())) {
      if (!now.containsKey(gone)) {
        counts.remove(gone);
        registry.remove(meters.remove(gone));
      }
    }
    return unschedulable;
  }
}
