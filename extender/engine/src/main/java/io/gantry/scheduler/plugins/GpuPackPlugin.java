package io.gantry.scheduler.plugins;

import io.gantry.gpusharing.DeviceOrder;
import io.gantry.gpusharing.GpuCandidate;
import io.gantry.scheduler.framework.GpuScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;

/** Prefers the fullest shared GPU that fits; a whole free GPU scores 0. */
public final class GpuPackPlugin implements GpuScorer {
  public static final String NAME = "gpupack";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public double scoreGpu(TaskState task, NodeState node, GpuCandidate candidate) {
    return DeviceOrder.GPUPACK.score(candidate);
  }
}
