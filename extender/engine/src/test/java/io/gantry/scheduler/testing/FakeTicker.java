package io.gantry.scheduler.testing;

import com.google.common.base.Ticker;
import java.time.Duration;

/**
 * A ticker tests drive: it stands still unless advanced, or moves {@code step} on every read, so a
 * search budget can be made to run out after a known number of checks.
 */
public final class FakeTicker extends Ticker {
  private long nanos;
  private final long step;
  private long reads;

  public FakeTicker() {
    this(Duration.ZERO);
  }

  /** A ticker that moves {@code step} forward on every read. */
  public FakeTicker(Duration step) {
    this.step = step.toNanos();
  }

  public void advance(Duration d) {
    nanos += d.toNanos();
  }

  /** How often the ticker was read. */
  public long reads() {
    return reads;
  }

  @Override
  public long read() {
    reads++;
    long now = nanos;
    nanos += step;
    return now;
  }
}
