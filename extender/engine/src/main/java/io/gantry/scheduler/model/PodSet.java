package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/** A leaf SubGroup; {@code minMember} pods must be placed together. */
public record PodSet(String name, int minMember, Optional<TopologyConstraint> topologyConstraint)
    implements SubGroupNode {
  public PodSet {
    requireNonNull(name, "name is null");
    requireNonNull(topologyConstraint, "topologyConstraint is null");
    if (minMember < 0) {
      throw new IllegalArgumentException("minMember must be >= 0, got " + minMember);
    }
  }

  /** A PodSet without a topology constraint. */
  public PodSet(String name, int minMember) {
    this(name, minMember, Optional.empty());
  }
}
