package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Retries of one write: at most {@code attempts}, waiting {@code first}, then twice as long each
 * time, at most {@code max}.
 */
public record Backoff(int attempts, Duration first, Duration max) {
  public static final Backoff DEFAULT =
      new Backoff(5, Duration.ofMillis(200), Duration.ofSeconds(5));

  public Backoff {
    requireNonNull(first, "first is null");
    requireNonNull(max, "max is null");
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be >= 1, got " + attempts);
    }
  }

  /** The wait before attempt {@code n + 1} (n counts from 0). */
  Duration after(int n) {
    long millis = first.toMillis() << Math.min(n, 20);
    return Duration.ofMillis(Math.min(millis, max.toMillis()));
  }
}
