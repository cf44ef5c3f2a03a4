package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.Map;
import java.util.Optional;

/**
 * Which nodes reach a device (protocols.md §4.5 item 2): exactly one of {@code nodeName}, {@code
 * nodeSelector} (one term, as Kubernetes validates it) and {@code allNodes}, given by the
 * ResourceSlice or, under {@code perDeviceNodeSelection}, by the device itself.
 */
public record DeviceNodes(
    Optional<String> nodeName, Optional<NodeSelectorTerm> nodeSelector, boolean allNodes) {
  public static final DeviceNodes ALL_NODES =
      new DeviceNodes(Optional.empty(), Optional.empty(), true);

  public DeviceNodes {
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(nodeSelector, "nodeSelector is null");
    int ways =
        (nodeName.isPresent() ? 1 : 0) + (nodeSelector.isPresent() ? 1 : 0) + (allNodes ? 1 : 0);
    if (ways != 1) {
      throw new IllegalArgumentException(
          "exactly one of nodeName, nodeSelector and allNodes must be set, got " + ways);
    }
  }

  public static DeviceNodes node(String nodeName) {
    return new DeviceNodes(Optional.of(nodeName), Optional.empty(), false);
  }

  public static DeviceNodes selector(NodeSelectorTerm nodeSelector) {
    return new DeviceNodes(Optional.empty(), Optional.of(nodeSelector), false);
  }

  /** Whether a pod on this node reaches the device. */
  public boolean reaches(String node, Map<String, String> nodeLabels) {
    if (allNodes) {
      return true;
    }
    if (nodeName.isPresent()) {
      return nodeName.get().equals(node);
    }
    return nodeSelector.orElseThrow().matches(nodeLabels, node);
  }

  /** The term {@code matchFields: metadata.name In [node]}. */
  public static NodeSelectorTerm nodeNameTerm(String node) {
    return new NodeSelectorTerm(
        ImmutableList.of(),
        ImmutableList.of(
            NodeSelectorRequirement.of(
                NodeSelectorTerm.NODE_NAME_FIELD, SelectorOperator.IN, node)));
  }
}
