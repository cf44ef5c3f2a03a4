package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;

/** A Topology object: node-label levels from the widest domain to the narrowest. */
public record TopologySpec(String name, List<TopologyLevelSpec> levels, int line) {
  public TopologySpec {
    requireNonNull(name, "name is null");
    levels = ImmutableList.copyOf(requireNonNull(levels, "levels is null"));
  }

  /** Whether {@code level} names one of the levels, by node label or by alias. */
  public boolean hasLevel(String level) {
    for (TopologyLevelSpec candidate : levels) {
      if (candidate.nodeLabel().equals(level) || candidate.alias().equals(Optional.of(level))) {
        return true;
      }
    }
    return false;
  }
}
