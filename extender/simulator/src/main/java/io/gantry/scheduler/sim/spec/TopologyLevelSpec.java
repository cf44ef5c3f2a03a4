package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

public record TopologyLevelSpec(String nodeLabel, Optional<String> alias) {
  public TopologyLevelSpec {
    requireNonNull(nodeLabel, "nodeLabel is null");
    requireNonNull(alias, "alias is null");
  }
}
