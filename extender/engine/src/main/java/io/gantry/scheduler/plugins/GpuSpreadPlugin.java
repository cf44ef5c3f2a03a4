package io.gantry.scheduler.plugins;

import io.gantry.gpusharing.DeviceOrder;
import io.gantry.gpusharing.GpuCandidate;
import io.gantry.scheduler.framework.GpuScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;

/** Prefers a whole free GPU (1), then the emptiest shared GPU (1 − used portion). */
public final class GpuSpreadPlugin implements GpuScorer {
  public static final String NAME = "gpuspread";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public double scoreGpu(TaskState task, NodeState node, GpuCandidate candidate) {
    return DeviceOrder.GPUSPREAD.score(candidate);
  }
}
