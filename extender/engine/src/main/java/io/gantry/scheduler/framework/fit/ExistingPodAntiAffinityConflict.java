package io.gantry.scheduler.framework.fit;

/** A pod in the node's domain has required anti-affinity that forbids the incoming pod. */
public record ExistingPodAntiAffinityConflict() implements PodAffinityMismatch {
  @Override
  public Kind kind() {
    return Kind.EXISTING_POD_ANTI_AFFINITY_CONFLICT;
  }

  @Override
  public boolean resolvableByEviction() {
    return true;
  }
}
