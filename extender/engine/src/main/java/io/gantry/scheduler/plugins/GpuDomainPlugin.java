package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.IndexOrderedScorer;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;
import java.util.List;

/**
 * Prefers, for a task asking for two or more whole GPUs, the nodes where free GPUs of one
 * interconnect domain (NVLink, NVSwitch) can hold all of them, so that the task does not span
 * domains where another node would not make it. Gantry's own plugin (KAI has none): a node that
 * publishes no domains, a task asking for fewer than two whole GPUs and a shared task score 0, as
 * without the plugin.
 */
public final class GpuDomainPlugin implements IndexOrderedScorer {
  public static final String NAME = "gpudomain";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Order orderFor(TaskState task) {
    return wholeGpus(task) >= 2 ? Order.ONE_DOMAIN_FIT_FIRST : Order.CONSTANT;
  }

  @Override
  public void preOrder(TaskState task, List<NodeState> candidates) {}

  @Override
  public double score(TaskState task, NodeState node) {
    long wholeGpus = wholeGpus(task);
    return wholeGpus >= 2 && node.freeGpusInOneDomain() >= wholeGpus ? NodeScores.GPU_DOMAIN : 0;
  }

  /** The whole GPUs the node's devices give the task: none for a shared task. */
  private static long wholeGpus(TaskState task) {
    return task.info().isShared() ? 0 : task.info().request().gpus().wholeDevices();
  }
}
