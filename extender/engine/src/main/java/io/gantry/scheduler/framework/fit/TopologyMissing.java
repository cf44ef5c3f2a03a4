package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/** A topology constraint names a Topology the snapshot does not hold (kai-reference §9 (a)). */
public record TopologyMissing(String topology) implements JobFitReason {
  public TopologyMissing {
    requireNonNull(topology, "topology is null");
  }

  @Override
  public Kind kind() {
    return Kind.TOPOLOGY_MISSING;
  }

  /** KAI records it with the plain PodSchedulingErrors reason. */
  @Override
  public Code code() {
    return Code.POD_SCHEDULING_ERRORS;
  }
}
