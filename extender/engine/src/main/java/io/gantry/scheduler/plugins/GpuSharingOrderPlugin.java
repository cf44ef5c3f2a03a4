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

  /**
   * Shared tasks asking for a fraction (the same portion on every node) prefer nodes with a shared
   * GPU that holds it; a portion by GPU memory differs per node and is not indexed.
   */
  @Override
  public Order orderFor(TaskState task) {
    if (task.info().gpuSharing().isEmpty()) {
      return Order.CONSTANT;
    }
    return task.info().gpuSharing().get().byMemory() ? Order.NONE : Order.SHARED_GPU_FIT_FIRST;
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
