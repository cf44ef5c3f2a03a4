package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds the node {@link BestFitScan} would pick over every node, for a task whose summed score
 * follows a {@link NodeGrouping} ({@link PluginHooks#nodeGrouping}): it scores the first node of
 * each group for all of its nodes, then checks nodes in score order, each score's groups by node
 * order, and stops at the first that fits. Scorers are prepared only once some node is known to
 * fit, as the scan prepares them, so a scorer that learns from what it is asked sees the same
 * calls.
 */
final class NodeGroupWalk {
  private record Scored(NodeGroups.Group group, double score) {}

  private static final Comparator<Scored> BEST_FIRST =
      Comparator.comparingDouble(Scored::score)
          .reversed()
          .thenComparingInt(s -> s.group().first().position());

  private final PluginHooks hooks;
  private final NodeChecks checks;

  /**
   * The node the last search returned and the group whose first node last answered {@link
   * #anyFits}: the next task usually fits there too, so asking them first spares checking the first
   * node of every full group before it.
   */
  private NodeState lastFound;

  private int lastFittingGroup;

  /**
   * The node that answered {@link #anyFits} for the task being placed: scoring moves no task, so it
   * still fits when the walk reaches it, and is not checked twice.
   */
  private NodeState knownToFit;

  NodeGroupWalk(PluginHooks hooks, NodeChecks checks) {
    this.hooks = hooks;
    this.checks = checks;
  }

  /**
   * The highest-scoring node that fits (the first in node order among equals), or null, every node
   * then told to {@code rejections} with why it does not fit.
   */
  NodeState bestFit(TaskState task, List<NodeGroups.Group> groups, RejectionTally rejections) {
    knownToFit = null;
    if (!anyFits(task, groups, rejections)) {
      return null;
    }
    List<NodeState> firsts = new ArrayList<>(groups.size());
    for (NodeGroups.Group g : groups) {
      firsts.add(g.first());
    }
    hooks.preOrderNodes(task, firsts);
    List<Scored> scored = new ArrayList<>(groups.size());
    for (NodeGroups.Group g : groups) {
      scored.add(new Scored(g, hooks.scoreNode(task, g.first())));
    }
    scored.sort(BEST_FIRST);
    for (int level = 0; level < scored.size(); ) {
      double score = scored.get(level).score();
      NodeState best = null;
      int next = level;
      for (; next < scored.size() && scored.get(next).score() == score; next++) {
        best = firstFit(task, scored.get(next).group(), best);
      }
      if (best != null) {
        lastFound = best;
        return best;
      }
      level = next;
    }
    throw new IllegalStateException("a node fits " + task.info().name() + " but no group holds it");
  }

  /**
   * Whether some node fits: the last node found or the first node of some group usually answers
   * (the groups are asked from the one that answered last); only when none does is every node
   * checked, and then, when none fits, every node is in {@code rejections}.
   */
  private boolean anyFits(
      TaskState task, List<NodeGroups.Group> groups, RejectionTally rejections) {
    if (lastFound != null && checks.unfit(task, lastFound).isEmpty()) {
      knownToFit = lastFound;
      return true;
    }
    int size = groups.size();
    int start = lastFittingGroup < size ? lastFittingGroup : 0;
    for (int i = 0; i < size; i++) {
      int g = (start + i) % size;
      if (checks.unfit(task, groups.get(g).first()).isEmpty()) {
        knownToFit = groups.get(g).first();
        lastFittingGroup = g;
        return true;
      }
    }
    boolean fits = false;
    for (NodeGroups.Group g : groups) {
      for (NodeState node : g.members()) {
        ImmutableList<NodeFitReason> reasons = checks.unfit(task, node);
        if (reasons.isEmpty()) {
          fits = true;
        } else {
          rejections.add(node, reasons, 1);
        }
      }
    }
    return fits;
  }

  /** The first node of the group that fits and comes before {@code best}, else {@code best}. */
  private NodeState firstFit(TaskState task, NodeGroups.Group group, NodeState best) {
    for (NodeState node : group.members()) {
      if (best != null && node.position() > best.position()) {
        return best;
      }
      if (node == knownToFit || checks.unfit(task, node).isEmpty()) {
        return node;
      }
    }
    return best;
  }
}
