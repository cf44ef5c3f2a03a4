package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * No domain of the constraint's levels has room for the (sub)group's pods (kai-reference §9 (d)).
 * {@code requirement} is the level the constraint asks for (the required one, else the preferred
 * one); {@code domain} the lowest domain that held every candidate node, empty for the whole
 * cluster.
 */
public record TopologyUnsatisfiable(
    String topology,
    String requirement,
    String job,
    Optional<String> subGroup,
    Optional<String> domain)
    implements JobFitReason {
  public TopologyUnsatisfiable {
    requireNonNull(topology, "topology is null");
    requireNonNull(requirement, "requirement is null");
    requireNonNull(job, "job is null");
    requireNonNull(subGroup, "subGroup is null");
    requireNonNull(domain, "domain is null");
  }

  @Override
  public Kind kind() {
    return Kind.TOPOLOGY_UNSATISFIABLE;
  }

  /** KAI records it with the plain PodSchedulingErrors reason. */
  @Override
  public Code code() {
    return Code.POD_SCHEDULING_ERRORS;
  }
}
