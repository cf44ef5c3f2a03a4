package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * The kind of GPU a task asks for is one the node does not offer to it (KAI's node_info {@code
 * PredicateByNodeResourcesType}): MIG instances against the node's MIG strategy, or a legacy MIG
 * pod. {@code node} is the node's name and {@code legacyMigPods} the legacy MIG pods on it, as
 * {@code namespace/name}, for the rules that name them.
 */
public record NodeResourceTypeMismatch(Rule rule, String node, ImmutableList<String> legacyMigPods)
    implements NodeFitReason {

  /** Which of KAI's rules the task breaks, in the order KAI checks them. */
  public enum Rule {
    /** A legacy MIG pod is never scheduled. */
    LEGACY_MIG_POD,
    /** MIG instances are only on MIG nodes. */
    MIG_ON_NON_MIG_NODE,
    /** No new MIG pod joins a node where a legacy MIG pod runs. */
    LEGACY_MIG_PODS_ON_NODE,
    /** A node with the single strategy offers whole GPUs only. */
    SINGLE_STRATEGY_WHOLE_GPUS_ONLY,
    /** A node with the mixed strategy offers MIG instances only. */
    MIXED_STRATEGY_MIG_ONLY
  }

  public NodeResourceTypeMismatch {
    requireNonNull(rule, "rule is null");
    requireNonNull(node, "node is null");
    requireNonNull(legacyMigPods, "legacyMigPods is null");
  }

  @Override
  public Kind kind() {
    return Kind.NODE_RESOURCE_TYPE_MISMATCH;
  }
}
