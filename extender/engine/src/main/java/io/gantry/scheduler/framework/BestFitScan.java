package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks every node of a scope for a task and scores those that fit: the scan both searches share
 * for a restricted node set, and the indexed search's answer when the index cannot say.
 */
public final class BestFitScan {
  private final PluginHooks hooks;
  private final NodeChecks checks;

  public BestFitScan(PluginHooks hooks, NodeChecks checks) {
    this.hooks = hooks;
    this.checks = checks;
  }

  /**
   * The highest-scoring node of the scope that fits (the first in node order among equals), with
   * the scope's own node scores added, or null; every node that does not fit is told to {@code
   * rejections}. Scorers are prepared (over the scope's nodes) only when some node fits.
   */
  public NodeState bestFit(TaskState task, NodeSubset scope, RejectionTally rejections) {
    List<NodeState> nodes = scope.nodes();
    List<NodeState> fitting = new ArrayList<>();
    for (NodeState node : nodes) {
      ImmutableList<NodeFitReason> reasons = checks.unfit(task, node);
      if (reasons.isEmpty()) {
        fitting.add(node);
      } else {
        rejections.add(node, reasons, 1);
      }
    }
    if (fitting.isEmpty()) {
      return null;
    }
    hooks.preOrderNodes(task, nodes);
    NodeState best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (NodeState node : fitting) {
      double score = hooks.scoreNode(task, node) + scope.score(node);
      if (score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }
}
