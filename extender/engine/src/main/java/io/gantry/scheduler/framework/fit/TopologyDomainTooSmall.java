package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.ResourceKind;
import java.util.Optional;

/**
 * One domain of the constraint's widest candidate level cannot hold the (sub)group (kai-reference
 * §9 (e)): for pods that all ask the same, it holds only {@code allocatablePods} of {@code
 * requiredPods}; otherwise it lacks free {@code resource}, one reason per short resource.
 */
public record TopologyDomainTooSmall(
    String domain, Optional<ResourceKind> resource, long allocatablePods, int requiredPods)
    implements JobFitReason {
  public TopologyDomainTooSmall {
    requireNonNull(domain, "domain is null");
    requireNonNull(resource, "resource is null");
  }

  public static TopologyDomainTooSmall pods(String domain, long allocatablePods, int requiredPods) {
    return new TopologyDomainTooSmall(domain, Optional.empty(), allocatablePods, requiredPods);
  }

  /** Pod counts are not reported for a resource shortfall; they stay 0. */
  public static TopologyDomainTooSmall resource(String domain, ResourceKind resource) {
    return new TopologyDomainTooSmall(domain, Optional.of(resource), 0, 0);
  }

  @Override
  public Kind kind() {
    return Kind.TOPOLOGY_DOMAIN_TOO_SMALL;
  }

  /** KAI's reason for a domain's shortfall is "Not enough resources for the workload". */
  @Override
  public Code code() {
    return Code.NOT_ENOUGH_RESOURCES;
  }
}
