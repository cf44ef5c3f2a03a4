package io.gantry.scheduler.plugins.dynamicresources;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code nodeSelector} of an allocation (protocols.md §4.5 item 6), as kube-scheduler's {@code
 * createNodeSelector} builds it from the allocated devices, in order: the first node-local device
 * binds the claim to its node alone; otherwise the requirements of every selected device's node
 * selector go into one term, each once, so the allocation is usable only where all of them hold
 * (their AND); devices reachable from all nodes add nothing, and with nothing added there is no
 * selector.
 */
final class AllocationNodeSelector {
  private AllocationNodeSelector() {}

  static ImmutableList<NodeSelectorTerm> of(List<DeviceNodes> devices) {
    List<NodeSelectorRequirement> expressions = new ArrayList<>();
    List<NodeSelectorRequirement> fields = new ArrayList<>();
    for (DeviceNodes d : devices) {
      if (d.nodeName().isPresent()) {
        return ImmutableList.of(DeviceNodes.nodeNameTerm(d.nodeName().get()));
      }
      Optional<NodeSelectorTerm> selector = d.nodeSelector();
      if (selector.isPresent()) {
        addNew(selector.get().matchExpressions(), expressions);
        addNew(selector.get().matchFields(), fields);
      }
    }
    if (expressions.isEmpty() && fields.isEmpty()) {
      return ImmutableList.of();
    }
    return ImmutableList.of(new NodeSelectorTerm(expressions, fields));
  }

  private static void addNew(List<NodeSelectorRequirement> from, List<NodeSelectorRequirement> to) {
    for (NodeSelectorRequirement r : from) {
      if (!to.contains(r)) {
        to.add(r);
      }
    }
  }
}
