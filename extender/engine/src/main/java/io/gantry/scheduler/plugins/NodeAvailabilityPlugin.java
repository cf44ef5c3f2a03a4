package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.IndexOrderedScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;
import java.util.List;

/** Prefers nodes where the task fits in idle resources now, without waiting for releasing ones. */
public final class NodeAvailabilityPlugin implements IndexOrderedScorer {
  public static final String NAME = "nodeavailability";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Order orderFor(TaskState task) {
    return Order.IDLE_FIT_FIRST;
  }

  @Override
  public void preOrder(TaskState task, List<NodeState> candidates) {}

  @Override
  public double score(TaskState task, NodeState node) {
    return io.gantry.scheduler.framework.GpuFit.fitsIdleNow(task, node)
        ? NodeScores.AVAILABILITY
        : 0;
  }
}
