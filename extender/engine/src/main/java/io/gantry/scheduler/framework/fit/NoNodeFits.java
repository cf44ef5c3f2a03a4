package io.gantry.scheduler.framework.fit;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * Why no node took a task: of the {@code nodes} nodes considered, each rejected one with its
 * reasons, in the order they were checked. {@link FitMessages#summary} prints it the way
 * kube-scheduler and KAI do.
 */
public record NoNodeFits(int nodes, ImmutableList<NodeRejection> rejections) {
  public NoNodeFits {
    requireNonNull(rejections, "rejections is null");
    checkArgument(
        rejections.size() <= nodes, "%s rejections for %s nodes", rejections.size(), nodes);
  }

  /** One node that refused the task, and why. */
  public record NodeRejection(String node, ImmutableList<NodeFitReason> reasons) {
    public NodeRejection {
      requireNonNull(node, "node is null");
      requireNonNull(reasons, "reasons is null");
      checkArgument(!reasons.isEmpty(), "a rejection of %s without a reason", node);
    }
  }
}
