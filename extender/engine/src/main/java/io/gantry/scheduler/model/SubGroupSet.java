package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;
import java.util.OptionalInt;

/** An inner SubGroup; {@code minSubGroup} of its direct children must be satisfied (unset: all). */
public record SubGroupSet(
    String name,
    OptionalInt minSubGroup,
    ImmutableList<SubGroupNode> children,
    Optional<TopologyConstraint> topologyConstraint)
    implements SubGroupNode {

  public SubGroupSet {
    requireNonNull(name, "name is null");
    requireNonNull(minSubGroup, "minSubGroup is null");
    requireNonNull(children, "children is null");
    requireNonNull(topologyConstraint, "topologyConstraint is null");
  }

  /** A SubGroupSet without a topology constraint. */
  public SubGroupSet(String name, OptionalInt minSubGroup, ImmutableList<SubGroupNode> children) {
    this(name, minSubGroup, children, Optional.empty());
  }

  public int required() {
    return minSubGroup.orElse(children.size());
  }

  /** Whether this node or any beneath it carries a topology constraint. */
  public boolean constrainedAnywhere() {
    if (topologyConstraint.isPresent()) {
      return true;
    }
    for (SubGroupNode child : children) {
      if (child.topologyConstraint().isPresent()
          || (child instanceof SubGroupSet s && s.constrainedAnywhere())) {
        return true;
      }
    }
    return false;
  }
}
