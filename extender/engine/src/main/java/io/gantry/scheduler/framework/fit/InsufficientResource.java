package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.ResourceKind;

/**
 * The task requests more of {@code resource} than the node has idle or releasing. Amounts are in
 * the resource's unit: GPU devices (whole-GPU requests), CPU millicores, memory bytes.
 */
public record InsufficientResource(ResourceKind resource, double requested, double free)
    implements NodeFitReason {
  public InsufficientResource {
    requireNonNull(resource, "resource is null");
  }

  @Override
  public Kind kind() {
    return Kind.INSUFFICIENT_RESOURCE;
  }
}
