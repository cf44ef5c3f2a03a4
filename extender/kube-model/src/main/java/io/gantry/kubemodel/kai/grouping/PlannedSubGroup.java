package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.kai.SubGroupDefinition;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One entry of the planned PodGroup's {@code spec.subGroups}: a leaf sets {@code minMember}, a
 * SubGroup with children sets {@code minSubGroup} or neither (all children).
 */
public record PlannedSubGroup(
    String name,
    Optional<String> parent,
    OptionalInt minMember,
    OptionalInt minSubGroup,
    Optional<TopologyConstraint> topologyConstraint) {
  public PlannedSubGroup {
    requireNonNull(name, "name is null");
    requireNonNull(parent, "parent is null");
    requireNonNull(minMember, "minMember is null");
    requireNonNull(minSubGroup, "minSubGroup is null");
    requireNonNull(topologyConstraint, "topologyConstraint is null");
  }

  /** A leaf holding pods. */
  public static PlannedSubGroup leaf(String name, Optional<String> parent, int minMember) {
    return new PlannedSubGroup(
        name, parent, OptionalInt.of(minMember), OptionalInt.empty(), Optional.empty());
  }

  /** A SubGroup with children, of which {@code minSubGroup} must be satisfied (all when empty). */
  public static PlannedSubGroup inner(
      String name, Optional<String> parent, OptionalInt minSubGroup) {
    return new PlannedSubGroup(name, parent, OptionalInt.empty(), minSubGroup, Optional.empty());
  }

  public PlannedSubGroup withTopologyConstraint(Optional<TopologyConstraint> constraint) {
    return new PlannedSubGroup(name, parent, minMember, minSubGroup, constraint);
  }

  /** The entry as the scheduler reads it ({@link io.gantry.kubemodel.kai.PodGroupShape}). */
  public SubGroupDefinition definition() {
    return new SubGroupDefinition(name, parent, minMember, minSubGroup);
  }
}
