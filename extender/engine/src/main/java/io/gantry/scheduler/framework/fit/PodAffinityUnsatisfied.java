package io.gantry.scheduler.framework.fit;

/** The node's domain holds no pod the incoming pod's required affinity needs. */
public record PodAffinityUnsatisfied() implements PodAffinityMismatch {
  @Override
  public Kind kind() {
    return Kind.POD_AFFINITY_UNSATISFIED;
  }

  @Override
  public boolean resolvableByEviction() {
    return false;
  }
}
