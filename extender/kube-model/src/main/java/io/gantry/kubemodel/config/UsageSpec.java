package io.gantry.kubemodel.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * {@code config.usage}: time-based fair share (kai-reference §5.4) from the simulated allocation
 * history, with KAI's usage parameters. {@code tumblingWindowStartTime} is relative to the start of
 * the simulation.
 */
public record UsageSpec(
    Duration windowSize,
    Duration halfLifePeriod,
    WindowType windowType,
    Duration tumblingWindowStartTime) {

  /** KAI's default window. */
  public static final Duration DEFAULT_WINDOW = Duration.ofDays(7);

  /** KAI's {@code windowType}: a window ending now, or one restarting every {@code windowSize}. */
  public enum WindowType {
    SLIDING,
    TUMBLING
  }

  public UsageSpec {
    requireNonNull(windowSize, "windowSize is null");
    requireNonNull(halfLifePeriod, "halfLifePeriod is null");
    requireNonNull(windowType, "windowType is null");
    requireNonNull(tumblingWindowStartTime, "tumblingWindowStartTime is null");
  }
}
