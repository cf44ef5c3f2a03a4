package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.List;

/**
 * One set of nodes a (sub)group's pods are tried on together (KAI's node set), with the score each
 * node adds for them on top of the node scorers' sum (the topology tier, kai-reference §6), by node
 * name. {@code everyNode}: the set is the whole cluster, unrestricted, so the node index may search
 * it.
 */
public record NodeSubset(
    ImmutableList<NodeState> nodes, ImmutableMap<String, Double> scores, boolean everyNode) {
  public NodeSubset {
    requireNonNull(nodes, "nodes is null");
    requireNonNull(scores, "scores is null");
  }

  /** Every node of the session, unrestricted and unscored. */
  public static NodeSubset everyNode(List<NodeState> nodes) {
    return new NodeSubset(ImmutableList.copyOf(nodes), ImmutableMap.of(), true);
  }

  /** A restricted set. */
  public static NodeSubset of(List<NodeState> nodes, ImmutableMap<String, Double> scores) {
    return new NodeSubset(ImmutableList.copyOf(nodes), scores, false);
  }

  public double score(NodeState node) {
    return scores.getOrDefault(node.name(), 0.0);
  }
}
