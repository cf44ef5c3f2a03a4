package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/**
 * A topology constraint names a level its Topology does not have (by node label or alias): the
 * PodGroup can never be placed under it, so it is told so rather than placed unconstrained.
 */
public record TopologyLevelMissing(String topology, String level) implements JobFitReason {
  public TopologyLevelMissing {
    requireNonNull(topology, "topology is null");
    requireNonNull(level, "level is null");
  }

  @Override
  public Kind kind() {
    return Kind.TOPOLOGY_LEVEL_MISSING;
  }

  @Override
  public Code code() {
    return Code.NOT_ENOUGH_RESOURCES;
  }
}
