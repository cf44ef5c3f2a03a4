package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NoNodeFits;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nodes that refused a task, gathered in any order — one by one in node order, in score order, or
 * one node standing for its class — and built into {@link NoNodeFits}'s one form: nodes with equal
 * reasons in one group named after its first node, groups in the order of their first node.
 */
public final class RejectionTally {
  private record Rejection(NodeState first, ImmutableList<NodeFitReason> reasons, int nodes) {}

  private final List<Rejection> rejections = new ArrayList<>();

  /** {@code nodes} nodes, {@code first} the first of them, refused for {@code reasons}. */
  public void add(NodeState first, ImmutableList<NodeFitReason> reasons, int nodes) {
    rejections.add(new Rejection(first, reasons, nodes));
  }

  public NoNodeFits build(int totalNodes) {
    List<Rejection> inNodeOrder = new ArrayList<>(rejections);
    inNodeOrder.sort(Comparator.comparingInt(r -> r.first().position()));
    Map<ImmutableList<NodeFitReason>, NoNodeFits.NodeRejection> groups = new LinkedHashMap<>();
    for (Rejection r : inNodeOrder) {
      groups.merge(
          r.reasons(),
          new NoNodeFits.NodeRejection(r.first().name(), r.reasons(), r.nodes()),
          (a, b) -> new NoNodeFits.NodeRejection(a.node(), a.reasons(), a.nodes() + b.nodes()));
    }
    return new NoNodeFits(totalNodes, ImmutableList.copyOf(groups.values()));
  }
}
