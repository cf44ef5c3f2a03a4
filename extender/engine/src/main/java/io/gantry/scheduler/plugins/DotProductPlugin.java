package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;

/**
 * The paper's dot product: the node whose free CPU and GPU have the smallest dot product with the
 * task's request, each dimension a share of the node's capacity.
 */
public final class DotProductPlugin extends CostPlacementPlugin {
  public static final String NAME = "dotproduct";

  public DotProductPlugin(Placement placement) {
    super(placement, PlacementStrategy.DOT_PRODUCT);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  double cost(TaskState task, NodeState node) {
    double cpuCapacity = node.info().allocatable().cpuMillis();
    double gpuCapacity = NodeIdleRoom.gpuCapacityHundredths(node);
    return NodeIdleRoom.share(task.info().request().cpuMillis(), cpuCapacity)
            * NodeIdleRoom.share(node.idle().cpuMillis(), cpuCapacity)
        + NodeIdleRoom.share(NodeIdleRoom.requestHundredths(task, node), gpuCapacity)
            * NodeIdleRoom.share(NodeIdleRoom.freeGpuHundredths(node), gpuCapacity);
  }
}
