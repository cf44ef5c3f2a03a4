package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A PodGroup's or SubGroup's {@code topologyConstraint}: the Topology to use and the level all its
 * pods must share ({@code requiredTopologyLevel}) or should share ({@code preferredTopologyLevel}).
 */
public record TopologyConstraint(
    String topology, Optional<String> requiredLevel, Optional<String> preferredLevel) {
  public TopologyConstraint {
    requireNonNull(topology, "topology is null");
    requireNonNull(requiredLevel, "requiredLevel is null");
    requireNonNull(preferredLevel, "preferredLevel is null");
  }
}
