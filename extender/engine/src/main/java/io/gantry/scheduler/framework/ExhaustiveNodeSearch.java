package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;

/**
 * KAI's straightforward search, the yardstick {@code gantry bench} and the equivalence tests hold
 * {@link IndexedNodeSearch} to: for every task it scores every node, sorts them by score (highest
 * first, then node name) and takes the first that fits; it searches every reclaimer and recomputes
 * every derived value when asked. The snapshot lists nodes by name, so it picks the node the
 * indexed search picks.
 */
public final class ExhaustiveNodeSearch implements NodeSearch {
  @Override
  public NodeFinder finder(Session session, NodeChecks checks) {
    PluginHooks hooks = session.hooks();
    return task -> {
      List<NodeState> nodes = session.nodes();
      RejectionTally rejections = new RejectionTally();
      NodeState best = firstFitInScoreOrder(hooks, checks, task, nodes, rejections);
      return best != null
          ? NodeFinding.found(best)
          : NodeFinding.none(rejections.build(nodes.size()));
    };
  }

  @Override
  public boolean skipsReclaimer(BooleanSupplier outOfReach) {
    return false;
  }

  @Override
  public <K, A, V> V reuse(
      Map<K, V> memo,
      K key,
      A argument,
      BiPredicate<? super V, ? super A> current,
      BiFunction<? super K, ? super A, ? extends V> compute) {
    return compute.apply(key, argument);
  }

  private record ScoredNode(NodeState node, double score) {}

  private static NodeState firstFitInScoreOrder(
      PluginHooks hooks,
      NodeChecks checks,
      TaskState task,
      List<NodeState> nodes,
      RejectionTally rejections) {
    hooks.preOrderNodes(task, nodes);
    List<ScoredNode> scored = new ArrayList<>(nodes.size());
    for (NodeState node : nodes) {
      scored.add(new ScoredNode(node, hooks.scoreNode(task, node)));
    }
    scored.sort(
        Comparator.comparingDouble(ScoredNode::score)
            .reversed()
            .thenComparing(s -> s.node().name()));
    for (ScoredNode s : scored) {
      ImmutableList<NodeFitReason> reasons = checks.unfit(task, s.node());
      if (reasons.isEmpty()) {
        return s.node();
      }
      rejections.add(s.node(), reasons, 1);
    }
    return null;
  }
}
