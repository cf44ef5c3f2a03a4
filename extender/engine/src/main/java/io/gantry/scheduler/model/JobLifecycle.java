package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a PodGroup carries about its life besides its shape (kai-reference §2.2): the timestamps KAI
 * writes as annotations ({@code kai.scheduler/last-start-timestamp}, {@code
 * kai.scheduler/last-eviction-timestamp}, {@code kai.scheduler/stale-podgroup-timestamp}) and the
 * spec's {@code preemptionDelay} and {@code stalenessGracePeriod}. Empty means the PodGroup does
 * not carry it.
 *
 * @param stalenessGracePeriod negative disables stale-gang eviction for the job; empty takes the
 *     scheduler's default
 */
public record JobLifecycle(
    Optional<Instant> lastStartedAt,
    Optional<Instant> lastEvictedAt,
    Optional<Instant> staleSince,
    Optional<Duration> preemptionDelay,
    Optional<Duration> stalenessGracePeriod) {

  /** A PodGroup with none of these. */
  public static final JobLifecycle NONE =
      new JobLifecycle(
          Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

  public JobLifecycle {
    requireNonNull(lastStartedAt, "lastStartedAt is null");
    requireNonNull(lastEvictedAt, "lastEvictedAt is null");
    requireNonNull(staleSince, "staleSince is null");
    requireNonNull(preemptionDelay, "preemptionDelay is null");
    requireNonNull(stalenessGracePeriod, "stalenessGracePeriod is null");
    if (preemptionDelay.isPresent() && preemptionDelay.get().isNegative()) {
      throw new IllegalArgumentException("preemptionDelay must not be negative");
    }
  }

  public JobLifecycle withLastStartedAt(Optional<Instant> value) {
    return new JobLifecycle(
        value, lastEvictedAt, staleSince, preemptionDelay, stalenessGracePeriod);
  }

  public JobLifecycle withLastEvictedAt(Optional<Instant> value) {
    return new JobLifecycle(
        lastStartedAt, value, staleSince, preemptionDelay, stalenessGracePeriod);
  }

  public JobLifecycle withStaleSince(Optional<Instant> value) {
    return new JobLifecycle(
        lastStartedAt, lastEvictedAt, value, preemptionDelay, stalenessGracePeriod);
  }
}
