package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.OptionalInt;

/** An inner SubGroup; {@code minSubGroup} of its direct children must be satisfied (unset: all). */
public record SubGroupSet(
    String name, OptionalInt minSubGroup, ImmutableList<SubGroupNode> children)
    implements SubGroupNode {

  public SubGroupSet {
    requireNonNull(name, "name is null");
    requireNonNull(minSubGroup, "minSubGroup is null");
    requireNonNull(children, "children is null");
  }

  public int required() {
    return minSubGroup.orElse(children.size());
  }
}
