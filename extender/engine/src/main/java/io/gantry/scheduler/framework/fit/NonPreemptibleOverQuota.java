package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.ResourceKind;

/**
 * A non-preemptible request would take {@code queue}'s non-preemptible allocation over its quota:
 * {@code quota < allocatedNonPreemptible + requested}.
 */
public record NonPreemptibleOverQuota(
    String queue,
    ResourceKind resource,
    double quota,
    double allocatedNonPreemptible,
    double requested)
    implements CapacityExceeded {
  public NonPreemptibleOverQuota {
    requireNonNull(queue, "queue is null");
    requireNonNull(resource, "resource is null");
  }

  @Override
  public Kind kind() {
    return Kind.NON_PREEMPTIBLE_OVER_QUOTA;
  }

  @Override
  public Code code() {
    return Code.NON_PREEMPTIBLE_OVER_QUOTA;
  }
}
