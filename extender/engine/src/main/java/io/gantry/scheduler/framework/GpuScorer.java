package io.gantry.scheduler.framework;

import io.gantry.gpusharing.GpuCandidate;

/** Scores devices within a node for a shared task; scores of all plugins are summed. */
public interface GpuScorer extends Plugin {
  double scoreGpu(TaskState task, NodeState node, GpuCandidate candidate);
}
