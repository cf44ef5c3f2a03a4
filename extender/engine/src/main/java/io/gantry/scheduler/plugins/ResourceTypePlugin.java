package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.IndexOrderedScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;
import java.util.List;

/** Keeps CPU-only tasks on CPU-only nodes, leaving GPU nodes for GPU work. */
public final class ResourceTypePlugin implements IndexOrderedScorer {
  public static final String NAME = "resourcetype";

  @Override
  public String name() {
    return NAME;
  }

  /** Only CPU-only tasks score here, on CPU-only nodes; for GPU tasks the score is 0 everywhere. */
  @Override
  public Order orderFor(TaskState task) {
    return task.info().requestsGpu() ? Order.CONSTANT : Order.CPU_ONLY_NODES_FIRST;
  }

  @Override
  public void preOrder(TaskState task, List<NodeState> candidates) {}

  @Override
  public double score(TaskState task, NodeState node) {
    boolean cpuOnlyTask = !task.info().requestsGpu();
    boolean cpuOnlyNode = node.info().gpuCount() == 0;
    return cpuOnlyTask && cpuOnlyNode ? NodeScores.RESOURCE_TYPE : 0;
  }
}
