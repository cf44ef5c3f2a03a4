package io.gantry.scheduler.framework.fit;

/** The node's domain holds a pod the incoming pod's required anti-affinity forbids. */
public record PodAntiAffinityConflict() implements PodAffinityMismatch {
  @Override
  public Kind kind() {
    return Kind.POD_ANTI_AFFINITY_CONFLICT;
  }

  @Override
  public boolean resolvableByEviction() {
    return true;
  }
}
