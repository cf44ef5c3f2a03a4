package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;

/**
 * Settings of a {@link FakeKubeServer}.
 *
 * @param historySize changes kept for watches to resume from (the compaction window); a watch from
 *     an older resourceVersion gets 410 Expired
 * @param bookmarks whether watches that ask ({@code allowWatchBookmarks=true}) get BOOKMARK events
 * @param bookmarkInterval how often an open watch that asked gets a bookmark (the real server sends
 *     about one a minute); {@link FakeKubeServer#sendBookmarks()} sends one at once
 * @param maxWatchTimeout how long a watch without {@code timeoutSeconds} stays open
 * @param clock source of creation and deletion timestamps
 */
public record FakeKubeConfig(
    int historySize,
    boolean bookmarks,
    Duration bookmarkInterval,
    Duration maxWatchTimeout,
    Clock clock) {

  public FakeKubeConfig {
    requireNonNull(bookmarkInterval, "bookmarkInterval is null");
    requireNonNull(maxWatchTimeout, "maxWatchTimeout is null");
    requireNonNull(clock, "clock is null");
    if (historySize < 1) {
      throw new IllegalArgumentException("historySize must be at least 1, got " + historySize);
    }
    if (bookmarkInterval.isNegative() || bookmarkInterval.isZero()) {
      throw new IllegalArgumentException("bookmarkInterval must be positive");
    }
    if (maxWatchTimeout.isNegative() || maxWatchTimeout.isZero()) {
      throw new IllegalArgumentException("maxWatchTimeout must be positive");
    }
  }

  /** 1000 changes of history, bookmarks on every 60 s, watches up to 30 min, the UTC clock. */
  public static FakeKubeConfig defaults() {
    return new FakeKubeConfig(
        1000, true, Duration.ofSeconds(60), Duration.ofMinutes(30), Clock.systemUTC());
  }

  public FakeKubeConfig withHistorySize(int size) {
    return new FakeKubeConfig(size, bookmarks, bookmarkInterval, maxWatchTimeout, clock);
  }

  public FakeKubeConfig withBookmarks(boolean enabled) {
    return new FakeKubeConfig(historySize, enabled, bookmarkInterval, maxWatchTimeout, clock);
  }

  public FakeKubeConfig withBookmarkInterval(Duration interval) {
    return new FakeKubeConfig(historySize, bookmarks, interval, maxWatchTimeout, clock);
  }

  public FakeKubeConfig withMaxWatchTimeout(Duration timeout) {
    return new FakeKubeConfig(historySize, bookmarks, bookmarkInterval, timeout, clock);
  }

  public FakeKubeConfig withClock(Clock newClock) {
    return new FakeKubeConfig(historySize, bookmarks, bookmarkInterval, maxWatchTimeout, newClock);
  }
}
