package io.gantry.extender;

import java.time.Duration;

/**
 * The bind barrier of one planned gang: members that reach {@code bind} wait until {@code required}
 * of them are waiting together, then all go at once, so a gang is bound whole or not at all. A
 * member that gives up leaves, so the barrier never opens on members that are no longer there; once
 * open it stays open (the gang's minimum is met, later members go straight through).
 *
 * <p>Thread-safe: one thread per waiting member.
 */
final class GangBarrier {
  private final String jobId;
  private final int required;
  private int waiting;
  private boolean open;

  GangBarrier(String jobId, int required) {
    if (required < 1) {
      throw new IllegalArgumentException("required must be >= 1, got " + required);
    }
    this.jobId = jobId;
    this.required = required;
  }

  String jobId() {
    return jobId;
  }

  int required() {
    return required;
  }

  /**
   * How a member's wait ended: the barrier opened, or it timed out with {@code waiting} members
   * (this one included) waiting at that moment.
   */
  record Wait(boolean opened, int waiting) {}

  /**
   * Waits until the barrier opens, at most {@code timeout}; a member that times out leaves, after
   * its count was taken.
   */
  synchronized Wait await(Duration timeout) throws InterruptedException {
    if (open) {
      return new Wait(true, waiting);
    }
    waiting++;
    if (waiting >= required) {
      open = true;
      notifyAll();
      return new Wait(true, waiting);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!open) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return new Wait(false, waiting);
        }
        wait(Math.max(1, left / 1_000_000));
      }
      return new Wait(true, waiting);
    } finally {
      if (!open) {
        waiting--;
      }
    }
  }
}
