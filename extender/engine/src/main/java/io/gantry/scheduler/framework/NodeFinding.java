package io.gantry.scheduler.framework;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.framework.fit.NoNodeFits;
import java.util.Optional;

/** Where a node search put a task: exactly one of the node it picked or why no node takes it. */
public record NodeFinding(Optional<NodeState> node, Optional<NoNodeFits> whyNone) {
  public NodeFinding {
    requireNonNull(node, "node is null");
    requireNonNull(whyNone, "whyNone is null");
    checkArgument(node.isPresent() != whyNone.isPresent(), "exactly one of node and whyNone");
  }

  public static NodeFinding found(NodeState node) {
    return new NodeFinding(Optional.of(node), Optional.empty());
  }

  public static NodeFinding none(NoNodeFits why) {
    return new NodeFinding(Optional.empty(), Optional.of(why));
  }
}
