package io.gantry.scheduler.framework.fit;

/**
 * Why the inter-pod affinity filter rejected a node, in the order kube-scheduler checks them:
 * {@link PodAffinityUnsatisfied}, {@link PodAntiAffinityConflict}, {@link
 * ExistingPodAntiAffinityConflict}.
 */
public sealed interface PodAffinityMismatch extends NodeFitReason
    permits PodAffinityUnsatisfied, PodAntiAffinityConflict, ExistingPodAntiAffinityConflict {
  /**
   * Whether evicting pods could make the node fit. kube-scheduler returns Unschedulable (preemption
   * may help) for the two anti-affinity failures and UnschedulableAndUnresolvable for affinity,
   * since removing pods never creates a pod the affinity needs.
   */
  boolean resolvableByEviction();
}
