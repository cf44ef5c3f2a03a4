package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/** One level of a Topology: the node label whose values name its domains, and an optional alias. */
public record TopologyLevel(String nodeLabel, Optional<String> alias) {
  public TopologyLevel {
    requireNonNull(nodeLabel, "nodeLabel is null");
    requireNonNull(alias, "alias is null");
  }

  /** Whether a constraint's level name ({@code nodeLabel} or alias) means this level. */
  public boolean isNamed(String level) {
    return nodeLabel.equals(level) || alias.equals(Optional.of(level));
  }
}
