package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/**
 * The task asks for more of {@code resource} (a Kubernetes resource name: {@code nvidia.com/gpu},
 * {@code cpu}, {@code memory}, {@code pods} or an extended resource) than the node has at all, so
 * no eviction there makes room for it.
 */
public record AllocatableTooSmall(String resource) implements NodeFitReason {
  public AllocatableTooSmall {
    requireNonNull(resource, "resource is null");
  }

  @Override
  public Kind kind() {
    return Kind.ALLOCATABLE_TOO_SMALL;
  }
}
