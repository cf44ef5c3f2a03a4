package io.gantry.kubemodel.kai;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.TopologyConstraint;
import java.util.Optional;
import java.util.OptionalInt;

/** One entry of a PodGroup's {@code spec.subGroups}, as written. */
public record SubGroupDefinition(
    String name,
    Optional<String> parent,
    OptionalInt minMember,
    OptionalInt minSubGroup,
    Optional<TopologyConstraint> topologyConstraint) {
  public SubGroupDefinition {
    requireNonNull(name, "name is null");
    requireNonNull(parent, "parent is null");
    requireNonNull(minMember, "minMember is null");
    requireNonNull(minSubGroup, "minSubGroup is null");
    requireNonNull(topologyConstraint, "topologyConstraint is null");
  }

  /** A SubGroup without a topology constraint. */
  public SubGroupDefinition(
      String name, Optional<String> parent, OptionalInt minMember, OptionalInt minSubGroup) {
    this(name, parent, minMember, minSubGroup, Optional.empty());
  }
}
