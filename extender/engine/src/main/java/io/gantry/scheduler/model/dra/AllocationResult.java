package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.Map;
import java.util.Optional;

/**
 * A claim's {@code status.allocation}: its devices ({@code devices.results}), the opaque
 * configurations passed to their drivers ({@code devices.config}: the classes' before the claim's,
 * protocols.md §4.5 item 6), and the terms of its {@code nodeSelector} (ORed, as in Kubernetes),
 * which bind the claim to the nodes they select; no terms when every device is reachable from all
 * nodes.
 */
public record AllocationResult(
    ImmutableList<DeviceResult> devices,
    ImmutableList<AllocationConfig> config,
    ImmutableList<NodeSelectorTerm> nodeSelectorTerms) {
  public AllocationResult {
    requireNonNull(devices, "devices is null");
    requireNonNull(config, "config is null");
    requireNonNull(nodeSelectorTerms, "nodeSelectorTerms is null");
  }

  /** An allocation bound to one node ({@code matchFields: metadata.name In [node]}). */
  public static AllocationResult onNode(
      ImmutableList<DeviceResult> devices, ImmutableList<AllocationConfig> config, String node) {
    return new AllocationResult(devices, config, ImmutableList.of(DeviceNodes.nodeNameTerm(node)));
  }

  /** Whether a pod on this node may use the allocation. */
  public boolean usableOn(String node, Map<String, String> nodeLabels) {
    if (nodeSelectorTerms.isEmpty()) {
      return true;
    }
    for (NodeSelectorTerm term : nodeSelectorTerms) {
      if (term.matches(nodeLabels, node)) {
        return true;
      }
    }
    return false;
  }

  /** The one node the selector names, when it is kube-scheduler's node-local form. */
  public Optional<String> nodeName() {
    if (nodeSelectorTerms.size() != 1) {
      return Optional.empty();
    }
    NodeSelectorTerm term = nodeSelectorTerms.get(0);
    if (!term.matchExpressions().isEmpty() || term.matchFields().size() != 1) {
      return Optional.empty();
    }
    NodeSelectorRequirement field = term.matchFields().get(0);
    return field.operator() == SelectorOperator.IN
        ? Optional.of(field.values().get(0))
        : Optional.empty();
  }
}
