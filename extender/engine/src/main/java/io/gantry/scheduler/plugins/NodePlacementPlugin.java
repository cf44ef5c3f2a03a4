package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.IndexOrderedScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;
import java.util.List;

/**
 * Bin-pack or spread by GPU (GPU tasks) or CPU (CPU-only tasks), kai-reference §6. Binpack scores
 * the fullest candidate 9 and the emptiest 0, linearly in idle+releasing capacity; spread scores
 * the free fraction of the node. A task type whose strategy is not KAI's (binpack, spread) scores 0
 * here: the {@link CostPlacementPlugin} of that strategy places it.
 */
public final class NodePlacementPlugin implements IndexOrderedScorer {
  public static final String NAME = "nodeplacement";

  private final Placement args;
  private double min;
  private double max;

  public NodePlacementPlugin(Placement args) {
    this.args = args;
  }

  @Override
  public String name() {
    return NAME;
  }

  public Placement args() {
    return args;
  }

  /**
   * Bin-packing scores strictly by fewer free whole GPUs for whole-GPU and shared-GPU tasks, and by
   * less free CPU for CPU-only tasks that ask for CPU (kai-reference §6). Scores of distinct free
   * amounts stay distinct in double arithmetic while the spread of free amounts is far below 10^12.
   */
  @Override
  public Order orderFor(TaskState task) {
    if (!strategy(task).isKai()) {
      return Order.CONSTANT;
    }
    if (task.info().isShared() || task.info().request().gpus().wholeDevices() >= 1) {
      return args.gpu() == PlacementStrategy.BINPACK ? Order.FEWER_FREE_GPUS_FIRST : Order.NONE;
    }
    boolean cpuTask = !task.info().requestsGpu() && task.info().request().cpuMillis() > 0;
    return cpuTask && args.cpu() == PlacementStrategy.BINPACK
        ? Order.FEWER_FREE_CPU_FIRST
        : Order.NONE;
  }

  @Override
  public void preOrder(TaskState task, List<NodeState> candidates) {
    boolean gpuTask = task.info().requestsGpu();
    min = Double.MAX_VALUE;
    max = 0;
    for (NodeState n : candidates) {
      if (capacity(n, gpuTask) <= 0) {
        continue;
      }
      double free = nonAllocated(n, gpuTask);
      min = Math.min(min, free);
      max = Math.max(max, free);
    }
    if (min == Double.MAX_VALUE) {
      min = 0;
    }
  }

  @Override
  public double score(TaskState task, NodeState node) {
    boolean gpuTask = task.info().requestsGpu();
    double capacity = capacity(node, gpuTask);
    if (capacity <= 0) {
      return 0;
    }
    PlacementStrategy strategy = strategy(task);
    if (!strategy.isKai()) {
      return 0;
    }
    double free = nonAllocated(node, gpuTask);
    if (strategy == PlacementStrategy.SPREAD) {
      return free / capacity;
    }
    if (max == 0) {
      return 0;
    }
    if (min == max) {
      return NodeScores.MAX_HIGH_DENSITY;
    }
    return NodeScores.MAX_HIGH_DENSITY * (1 - (free - min) / (max - min));
  }

  private PlacementStrategy strategy(TaskState task) {
    return task.info().requestsGpu() ? args.gpu() : args.cpu();
  }

  private static double capacity(NodeState node, boolean gpuTask) {
    return gpuTask ? node.info().gpuCount() : node.info().allocatable().cpuMillis();
  }

  private static double nonAllocated(NodeState node, boolean gpuTask) {
    return gpuTask
        ? node.idleWholeGpus() + node.releasingWholeGpus()
        : node.idle().cpuMillis() + node.releasing().cpuMillis();
  }
}
