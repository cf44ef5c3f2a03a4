package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.IndexOrderedScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;
import java.util.List;

/** Prefers nodes with a shared GPU the fractional task fits on, so fractions pack together. */
public final class GpuSharingOrderPlugin implements IndexOrderedScorer {
  public static final String NAME = "gpusharingorder";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Order orderFor(TaskState task) {
    return task.info().isShared() ? Order.NONE : Order.CONSTANT;
  }

  @Override
  public void preOrder(TaskState task, List<NodeState> candidates) {}

  @Override
  public double score(TaskState task, NodeState node) {
    if (!task.info().isShared()) {
      return 0;
    }
    boolean fitsShared = GpuFit.candidates(task, node).stream().anyMatch(c -> c.isShared());
    return fitsShared ? NodeScores.GPU_SHARING : 0;
  }
}
