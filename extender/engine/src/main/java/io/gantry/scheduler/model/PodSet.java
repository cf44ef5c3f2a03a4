package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

/** A leaf SubGroup; {@code minMember} pods must be placed together. */
public record PodSet(String name, int minMember) implements SubGroupNode {
  public PodSet {
    requireNonNull(name, "name is null");
    if (minMember < 0) {
      throw new IllegalArgumentException("minMember must be >= 0, got " + minMember);
    }
  }
}
