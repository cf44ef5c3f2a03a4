package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

/** One node's score in a {@code prioritize} answer, 0 ({@link #MIN}) to 10 ({@link #MAX}). */
public record HostPriority(String host, long score) {
  public static final long MIN = 0;
  public static final long MAX = 10;

  public HostPriority {
    requireNonNull(host, "host is null");
    if (score < MIN || score > MAX) {
      throw new IllegalArgumentException("score must be 0..10, got " + score);
    }
  }
}
