package io.gantry.scheduler.framework.fit;

/** None of the pod's required node selector terms matches the node. */
public record NodeAffinityMismatch() implements NodeFitReason {
  @Override
  public Kind kind() {
    return Kind.NODE_AFFINITY_MISMATCH;
  }
}
