package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.util.List;
import java.util.Map;

/**
 * Whether a node satisfies a pod's nodeSelector and required node affinity, as kube-scheduler's
 * NodeAffinity filter. On failure report {@link PredicateMessages#NODE_AFFINITY_MISMATCH}.
 */
public final class NodeAffinityRule {
  private NodeAffinityRule() {}

  /**
   * True when every nodeSelector entry is on the node with the same value and, if the pod has
   * required node selector terms, at least one of them matches.
   */
  public static boolean matches(
      PodPlacementRequirements requirements, Map<String, String> nodeLabels, String nodeName) {
    requireNonNull(requirements, "requirements is null");
    requireNonNull(nodeLabels, "nodeLabels is null");
    requireNonNull(nodeName, "nodeName is null");
    for (Map.Entry<String, String> required : requirements.nodeSelector().entrySet()) {
      if (!required.getValue().equals(nodeLabels.get(required.getKey()))) {
        return false;
      }
    }
    List<NodeSelectorTerm> terms = requirements.affinity().requiredNodeTerms();
    if (terms.isEmpty()) {
      return true;
    }
    for (NodeSelectorTerm term : terms) {
      if (term.matches(nodeLabels, nodeName)) {
        return true;
      }
    }
    return false;
  }
}
