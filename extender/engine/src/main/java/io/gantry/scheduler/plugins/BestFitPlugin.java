package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;

/**
 * The paper's best fit: the node left with the least resources once the task is on it, as the sum
 * of the CPU and the GPU it would have free, each a share of the node's own.
 */
public final class BestFitPlugin extends CostPlacementPlugin {
  public static final String NAME = "bestfit";

  public BestFitPlugin(Placement placement) {
    super(placement, PlacementStrategy.BEST_FIT);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  double cost(TaskState task, NodeState node) {
    long cpuLeft = node.idle().cpuMillis() - task.info().request().cpuMillis();
    long gpuLeft =
        NodeIdleRoom.freeGpuHundredths(node) - NodeIdleRoom.requestHundredths(task, node);
    return NodeIdleRoom.share(cpuLeft, node.info().allocatable().cpuMillis())
        + NodeIdleRoom.share(gpuLeft, NodeIdleRoom.gpuCapacityHundredths(node));
  }
}
