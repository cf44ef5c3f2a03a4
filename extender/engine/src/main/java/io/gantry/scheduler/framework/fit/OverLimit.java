package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.ResourceKind;

/**
 * Placing the request would take {@code queue} over its limit: {@code limit < allocated +
 * requested}.
 */
public record OverLimit(
    String queue, ResourceKind resource, double limit, double allocated, double requested)
    implements CapacityExceeded {
  public OverLimit {
    requireNonNull(queue, "queue is null");
    requireNonNull(resource, "resource is null");
  }

  @Override
  public Kind kind() {
    return Kind.OVER_LIMIT;
  }

  @Override
  public Code code() {
    return Code.OVER_LIMIT;
  }
}
