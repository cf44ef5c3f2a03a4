package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalInt;

/** A node of a job's subgroup tree; leaves hold tasks, inner subgroups hold subgroups. */
public record SubGroupSpec(
    String name,
    Optional<String> parent,
    OptionalInt minMember,
    OptionalInt minSubGroup,
    Optional<TopologyConstraintSpec> topologyConstraint,
    int line) {
  public SubGroupSpec {
    requireNonNull(name, "name is null");
    requireNonNull(parent, "parent is null");
    requireNonNull(minMember, "minMember is null");
    requireNonNull(minSubGroup, "minSubGroup is null");
    requireNonNull(topologyConstraint, "topologyConstraint is null");
  }
}
