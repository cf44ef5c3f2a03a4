package io.gantry.scheduler.api.usage;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.ResourceVector;
import java.time.Instant;

/**
 * Where time-based fair share (kai-reference §5.4) gets each queue's historical usage: per queue
 * and resource, the windowed sum of the queue's allocation divided by the windowed sum of the
 * cluster's capacity. An adapter asks it when it builds a snapshot and puts the answer in {@link
 * io.gantry.scheduler.model.ClusterSnapshot#queueUsage()}; the engine reads no usage of its own.
 * The simulator computes it from the simulated allocation history; on a cluster it comes from
 * Prometheus.
 */
public interface UsageSource {
  /** No usage data: every queue has used nothing, and shares follow weights alone. */
  UsageSource NONE = now -> ImmutableSortedMap.of();

  /** Each queue's usage as of {@code now}; queues that used nothing may be left out. */
  ImmutableSortedMap<String, ResourceVector> usage(Instant now);
}
