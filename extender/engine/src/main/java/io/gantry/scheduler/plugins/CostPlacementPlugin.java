package io.gantry.scheduler.plugins;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.IndexOrderedScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;
import java.util.Arrays;
import java.util.List;

/**
 * A placement strategy that is not KAI's ({@link PlacementStrategy#isKai()}): it gives each
 * candidate node where the task fits in idle resources a cost, and scores the cheapest candidate
 * {@value NodeScores#MAX_HIGH_DENSITY} and the dearest 0, linearly, in the bin-packing tier
 * (kai-reference §6), so every higher tier (shared GPU fit, availability, GPU domain, resource
 * type) still decides first. It scores only the task types whose strategy it is; other tasks, and
 * nodes where the task fits only once releasing tasks are gone, score 0.
 */
abstract class CostPlacementPlugin implements IndexOrderedScorer {
  private final Placement placement;
  private final PlacementStrategy strategy;

  /**
   * Cost per node position, valid where {@link #costedIn} holds the current {@link #round}: a new
   * task then needs no pass over every position to forget the last one's costs (the search may give
   * it one node per group).
   */
  private double[] costs = new double[0];

  private long[] costedIn = new long[0];
  private long round;

  private double min;
  private double max;

  CostPlacementPlugin(Placement placement, PlacementStrategy strategy) {
    this.placement = requireNonNull(placement, "placement is null");
    this.strategy = requireNonNull(strategy, "strategy is null");
  }

  /** Whether this plugin places the task: the strategy of its type (GPU or CPU-only) is ours. */
  final boolean places(TaskState task) {
    return (task.info().requestsGpu() ? placement.gpu() : placement.cpu()) == strategy;
  }

  /**
   * A task of the other type (a CPU-only task bin-packed by KAI's rule) scores 0 everywhere here,
   * so the node index can still find its node; one this plugin places is costed node by node.
   */
  @Override
  public final Order orderFor(TaskState task) {
    return places(task) ? Order.NONE : Order.CONSTANT;
  }

  /**
   * The cost of placing the task on the node, lower is better, or NaN to leave the node unscored;
   * called only for nodes where the task fits in idle resources now.
   */
  abstract double cost(TaskState task, NodeState node);

  /** Called once per task before the candidates' costs, so a subclass can prepare. */
  void prepare(TaskState task) {}

  @Override
  public final void preOrder(TaskState task, List<NodeState> candidates) {
    min = Double.POSITIVE_INFINITY;
    max = Double.NEGATIVE_INFINITY;
    if (!places(task)) {
      return;
    }
    int size = 0;
    for (NodeState n : candidates) {
      size = Math.max(size, n.position() + 1);
    }
    if (costs.length < size) {
      // doubled: the candidates of one task (one node per group) reach higher positions a few at
      // a time, and growing to the exact size copied both arrays for many tasks of a cycle
      int length = Math.max(size, 2 * costs.length);
      costs = Arrays.copyOf(costs, length);
      costedIn = Arrays.copyOf(costedIn, length);
    }
    round++;
    prepare(task);
    for (NodeState n : candidates) {
      if (!GpuFit.fitsIdleNow(task, n)) {
        continue;
      }
      double c = cost(task, n);
      if (Double.isNaN(c)) {
        continue;
      }
      costs[n.position()] = c;
      costedIn[n.position()] = round;
      min = Math.min(min, c);
      max = Math.max(max, c);
    }
  }

  @Override
  public final double score(TaskState task, NodeState node) {
    if (!places(task) || node.position() >= costs.length || costedIn[node.position()] != round) {
      return 0;
    }
    double c = costs[node.position()];
    if (max == min) {
      return NodeScores.MAX_HIGH_DENSITY;
    }
    return NodeScores.MAX_HIGH_DENSITY * (max - c) / (max - min);
  }
}
