package io.gantry.scheduler.plugins.predicates;

import io.gantry.scheduler.model.placement.PlacedPod;
import java.util.Map;

/**
 * The read-only slice of the cluster snapshot that inter-pod affinity needs.
 *
 * <p>Contract: both methods answer from one consistent snapshot for the duration of {@link
 * PodAffinityRule#prepare}; the rule indexes the view once and never calls it afterwards. {@link
 * #placedPods()} must not contain the pod being scheduled, as in kube-scheduler's snapshot; it may
 * be iterated in any order, since the rule's outcome does not depend on it.
 */
public interface PlacedPodsView {
  /** Every pod bound or assumed to a node. */
  Iterable<PlacedPod> placedPods();

  /**
   * The labels of the named node, or an empty map when the node is unknown; a pod on such a node is
   * then in no topology domain. Called once per placed pod, so it should be a lookup.
   */
  Map<String, String> nodeLabels(String nodeName);
}
