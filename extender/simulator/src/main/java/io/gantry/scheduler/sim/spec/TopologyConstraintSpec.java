package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Keeps a job or subgroup inside one domain of a topology; levels name a node label or an alias.
 */
public record TopologyConstraintSpec(
    String topology,
    Optional<String> requiredTopologyLevel,
    Optional<String> preferredTopologyLevel) {
  public TopologyConstraintSpec {
    requireNonNull(topology, "topology is null");
    requireNonNull(requiredTopologyLevel, "requiredTopologyLevel is null");
    requireNonNull(preferredTopologyLevel, "preferredTopologyLevel is null");
  }
}
