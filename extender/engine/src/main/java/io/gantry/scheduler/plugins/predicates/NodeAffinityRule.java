package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.framework.fit.NodeAffinityMismatch;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import io.gantry.scheduler.framework.fit.NodeSelectorMismatch;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a node satisfies a pod's nodeSelector and required node affinity, as kube-scheduler's
 * NodeAffinity filter.
 */
public final class NodeAffinityRule {
  private NodeAffinityRule() {}

  /**
   * Empty when every nodeSelector entry is on the node with the same value and, if the pod has
   * required node selector terms, at least one of them matches; otherwise the first nodeSelector
   * entry that does not match ({@link NodeSelectorMismatch}), else {@link NodeAffinityMismatch}.
   */
  public static Optional<NodeFitReason> mismatch(
      PodPlacementRequirements requirements, Map<String, String> nodeLabels, String nodeName) {
    requireNonNull(requirements, "requirements is null");
    requireNonNull(nodeLabels, "nodeLabels is null");
    requireNonNull(nodeName, "nodeName is null");
    for (Map.Entry<String, String> required : requirements.nodeSelector().entrySet()) {
      if (!required.getValue().equals(nodeLabels.get(required.getKey()))) {
        return Optional.of(new NodeSelectorMismatch(required.getKey()));
      }
    }
    List<NodeSelectorTerm> terms = requirements.affinity().requiredNodeTerms();
    if (terms.isEmpty()) {
      return Optional.empty();
    }
    for (NodeSelectorTerm term : terms) {
      if (term.matches(nodeLabels, nodeName)) {
        return Optional.empty();
      }
    }
    return Optional.of(new NodeAffinityMismatch());
  }
}
