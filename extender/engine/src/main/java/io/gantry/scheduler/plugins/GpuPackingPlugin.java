package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;

/**
 * The paper's GPU packing: first a node with a shared GPU in use that can take the task's portion,
 * then a node with some GPU in use, then an idle node; within a tier, the node left with the
 * smallest share of its GPU free.
 */
public final class GpuPackingPlugin extends CostPlacementPlugin {
  public static final String NAME = "gpupacking";

  public GpuPackingPlugin(Placement placement) {
    super(placement, PlacementStrategy.GPU_PACKING);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  double cost(TaskState task, NodeState node) {
    long free = NodeIdleRoom.freeGpuHundredths(node);
    long capacity = NodeIdleRoom.gpuCapacityHundredths(node);
    int tier;
    if (NodeIdleRoom.sharedDeviceFits(task, node)) {
      tier = 0;
    } else if (free < capacity) {
      tier = 1;
    } else {
      tier = 2;
    }
    // the share left free is below 1, so it orders nodes only within a tier
    return tier
        + NodeIdleRoom.share(free - NodeIdleRoom.requestHundredths(task, node), capacity) / 2;
  }
}
