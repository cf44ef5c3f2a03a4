package io.gantry.scheduler.plugins.predicates;

/** Why the inter-pod affinity filter rejected a node, in the order kube-scheduler checks them. */
public enum PodAffinityFailure {
  /** The node's domain holds no pod the incoming pod's affinity requires. */
  AFFINITY_RULES_NOT_MATCH(PredicateMessages.POD_AFFINITY_MISMATCH, false),
  /** The node's domain holds a pod the incoming pod's anti-affinity forbids. */
  ANTI_AFFINITY_RULES_NOT_MATCH(PredicateMessages.POD_ANTI_AFFINITY_MISMATCH, true),
  /** A pod in the node's domain has anti-affinity that forbids the incoming pod. */
  EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH(
      PredicateMessages.EXISTING_POD_ANTI_AFFINITY_MISMATCH, true);

  private final String message;
  private final boolean resolvableByEviction;

  PodAffinityFailure(String message, boolean resolvableByEviction) {
    this.message = message;
    this.resolvableByEviction = resolvableByEviction;
  }

  /** kube-scheduler's fit-failure sentence. */
  public String message() {
    return message;
  }

  /**
   * Whether evicting pods could make the node fit. kube-scheduler returns Unschedulable (preemption
   * may help) for the two anti-affinity failures and UnschedulableAndUnresolvable for affinity,
   * since removing pods never creates a pod the affinity needs.
   */
  public boolean resolvableByEviction() {
    return resolvableByEviction;
  }
}
