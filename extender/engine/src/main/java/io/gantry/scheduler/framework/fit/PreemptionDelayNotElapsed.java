package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * The job is inside its preemption delay (kai-reference §4.5, §10.4): it may not start evictions
 * before {@code until}, its {@code delay} after its creation or last eviction.
 */
public record PreemptionDelayNotElapsed(Duration delay, Instant until) implements JobFitReason {
  public PreemptionDelayNotElapsed {
    requireNonNull(delay, "delay is null");
    requireNonNull(until, "until is null");
  }

  @Override
  public Kind kind() {
    return Kind.PREEMPTION_DELAY_NOT_ELAPSED;
  }

  @Override
  public Code code() {
    return Code.PREEMPTION_DELAY_NOT_ELAPSED;
  }
}
