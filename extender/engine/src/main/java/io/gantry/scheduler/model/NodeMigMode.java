package io.gantry.scheduler.model;

import io.gantry.gpusharing.MigProfile;

/**
 * How a node offers its GPUs with respect to MIG, read as KAI reads it (its node_info {@code
 * IsMIGEnabled} and {@code GetMigStrategy}): a node is a MIG node when its {@value #ENABLED_LABEL}
 * label says so, or, without the label, when it offers any MIG instance resource; the strategy is
 * its {@value #STRATEGY_LABEL} label. The strategy label alone does not make a MIG node: GPU
 * feature discovery writes {@code single} on every GPU node, MIG or not.
 */
public enum NodeMigMode {
  /** Not a MIG node. */
  NONE,
  /** A MIG node whose strategy label is missing or neither {@code single} nor {@code mixed}. */
  UNKNOWN_STRATEGY,
  /** Every GPU is a MIG instance offered as one {@code nvidia.com/gpu}. */
  SINGLE,
  /** The GPUs are offered only as {@code nvidia.com/mig-<profile>} instances. */
  MIXED;

  public static final String ENABLED_LABEL = "node-role.kubernetes.io/mig-enabled";
  public static final String STRATEGY_LABEL = "nvidia.com/mig.strategy";

  public static NodeMigMode of(NodeInfo node) {
    if (!enabled(node)) {
      return NONE;
    }
    String strategy = node.labels().getOrDefault(STRATEGY_LABEL, "");
    return switch (strategy) {
      case "single" -> SINGLE;
      case "mixed" -> MIXED;
      default -> UNKNOWN_STRATEGY;
    };
  }

  public boolean migNode() {
    return this != NONE;
  }

  private static boolean enabled(NodeInfo node) {
    String label = node.labels().get(ENABLED_LABEL);
    if (label != null) {
      return goTrue(label);
    }
    return node.allocatable().extended().keySet().stream().anyMatch(MigProfile::isMigResource);
  }

  /** Go's strconv.ParseBool read as true; anything it rejects counts as false, as in KAI. */
  private static boolean goTrue(String value) {
    return switch (value) {
      case "1", "t", "T", "TRUE", "true", "True" -> true;
      default -> false;
    };
  }
}
