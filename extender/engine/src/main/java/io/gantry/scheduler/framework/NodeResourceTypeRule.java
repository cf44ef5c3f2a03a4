package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NodeResourceTypeMismatch;
import io.gantry.scheduler.framework.fit.NodeResourceTypeMismatch.Rule;
import io.gantry.scheduler.model.NodeMigMode;
import io.gantry.scheduler.model.TaskInfo;
import java.util.List;
import java.util.Optional;

/**
 * Whether a node offers the kind of GPU a task asks for, by KAI's rules (its node_info {@code
 * PredicateByNodeResourcesType}, checked in this order): a legacy MIG pod is never placed; a
 * CPU-only task fits any node; MIG instances only on a MIG node, and not beside a legacy MIG pod;
 * on a node with the single strategy only whole GPUs, on one with the mixed strategy only MIG
 * instances. KAI runs it after the resource fit and the queue capacity check on the node, so a task
 * that lacks resources there is told that instead.
 */
public final class NodeResourceTypeRule {
  private NodeResourceTypeRule() {}

  public static Optional<NodeResourceTypeMismatch> mismatch(TaskInfo task, NodeState node) {
    if (task.legacyMig()) {
      return reason(Rule.LEGACY_MIG_POD, node);
    }
    if (!task.requestsGpu()) {
      return Optional.empty();
    }
    NodeMigMode mode = node.migMode();
    boolean mig = task.requestsMig();
    if (!mode.migNode()) {
      return mig ? reason(Rule.MIG_ON_NON_MIG_NODE, node) : Optional.empty();
    }
    if (mig) {
      List<String> legacy = node.legacyMigPods();
      if (!legacy.isEmpty()) {
        return Optional.of(
            new NodeResourceTypeMismatch(
                Rule.LEGACY_MIG_PODS_ON_NODE, node.name(), ImmutableList.copyOf(legacy)));
      }
    }
    boolean wholeGpus = !mig && !task.isShared();
    if (mode == NodeMigMode.SINGLE && !wholeGpus) {
      return reason(Rule.SINGLE_STRATEGY_WHOLE_GPUS_ONLY, node);
    }
    if (mode == NodeMigMode.MIXED && !mig) {
      return reason(Rule.MIXED_STRATEGY_MIG_ONLY, node);
    }
    return Optional.empty();
  }

  private static Optional<NodeResourceTypeMismatch> reason(Rule rule, NodeState node) {
    return Optional.of(new NodeResourceTypeMismatch(rule, node.name(), ImmutableList.of()));
  }
}
