package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The (sub)group fits the lowest common domain of its nodes, but no single domain of the
 * constraint's levels holds it (kai-reference §9 (e)); the required-level domains that were too
 * small are reported beside it as {@link TopologyDomainTooSmall}. {@code requirement} is the level
 * the constraint asks for (the required one, else the preferred one).
 */
public record TopologyNoDomainFits(
    String topology, String requirement, String job, Optional<String> subGroup)
    implements JobFitReason {
  public TopologyNoDomainFits {
    requireNonNull(topology, "topology is null");
    requireNonNull(requirement, "requirement is null");
    requireNonNull(job, "job is null");
    requireNonNull(subGroup, "subGroup is null");
  }

  @Override
  public Kind kind() {
    return Kind.TOPOLOGY_NO_DOMAIN_FITS;
  }

  /** KAI reports it as a plain scheduling error, like {@link TopologyUnsatisfiable}. */
  @Override
  public Code code() {
    return Code.POD_SCHEDULING_ERRORS;
  }
}
