package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/**
 * The task requests more of the extended resource {@code resource} (for example {@code
 * example.com/nic}) than the node has idle or releasing, in the resource's own units.
 */
public record InsufficientExtendedResource(String resource, long requested, long free)
    implements NodeFitReason {
  public InsufficientExtendedResource {
    requireNonNull(resource, "resource is null");
  }

  @Override
  public Kind kind() {
    return Kind.INSUFFICIENT_EXTENDED_RESOURCE;
  }
}
