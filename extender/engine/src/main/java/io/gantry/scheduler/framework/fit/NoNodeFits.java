package io.gantry.scheduler.framework.fit;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * Why no node took a task: of the {@code nodes} nodes considered, those rejected, grouped by their
 * reasons: each group names the first of its nodes (in the session's node order) and counts them,
 * groups in the order of their first node. The engine may check one node per class of identical
 * nodes and count the class, so a group's count is not a list of names. {@link FitMessages#summary}
 * prints it the way kube-scheduler and KAI do.
 */
public record NoNodeFits(int nodes, ImmutableList<NodeRejection> rejections) {
  public NoNodeFits {
    requireNonNull(rejections, "rejections is null");
    long rejected = rejections.stream().mapToLong(NodeRejection::nodes).sum();
    checkArgument(rejected <= nodes, "%s rejections for %s nodes", rejected, nodes);
  }

  /** How many nodes refused the task. */
  public long rejected() {
    return rejections.stream().mapToLong(NodeRejection::nodes).sum();
  }

  /** {@code nodes} nodes that refused the task for the same reasons, the first of them named. */
  public record NodeRejection(String node, ImmutableList<NodeFitReason> reasons, int nodes) {
    public NodeRejection {
      requireNonNull(node, "node is null");
      requireNonNull(reasons, "reasons is null");
      checkArgument(!reasons.isEmpty(), "a rejection of %s without a reason", node);
      checkArgument(nodes >= 1, "a rejection of %s nodes", nodes);
    }

    /** One node that refused the task. */
    public NodeRejection(String node, ImmutableList<NodeFitReason> reasons) {
      this(node, reasons, 1);
    }
  }
}
