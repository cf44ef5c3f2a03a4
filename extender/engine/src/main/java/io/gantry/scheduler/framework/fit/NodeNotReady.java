package io.gantry.scheduler.framework.fit;

/** The node's Ready condition is not true. */
public record NodeNotReady() implements NodeFitReason {
  @Override
  public Kind kind() {
    return Kind.NODE_NOT_READY;
  }
}
