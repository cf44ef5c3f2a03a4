package io.gantry.scheduler.model.placement;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.List;
import java.util.Map;

/**
 * A node selector term: every requirement in it must hold. Terms of one node affinity are ORed by
 * the caller.
 *
 * @param matchFields requirements on node fields; as in Kubernetes only {@code metadata.name} with
 *     In or NotIn and exactly one value is accepted
 */
public record NodeSelectorTerm(
    List<NodeSelectorRequirement> matchExpressions, List<NodeSelectorRequirement> matchFields) {
  public static final String NODE_NAME_FIELD = "metadata.name";

  public NodeSelectorTerm {
    matchExpressions =
        ImmutableList.copyOf(requireNonNull(matchExpressions, "matchExpressions is null"));
    matchFields = ImmutableList.copyOf(requireNonNull(matchFields, "matchFields is null"));
    for (NodeSelectorRequirement field : matchFields) {
      validateField(field);
    }
  }

  public static NodeSelectorTerm ofExpressions(NodeSelectorRequirement... matchExpressions) {
    return new NodeSelectorTerm(ImmutableList.copyOf(matchExpressions), ImmutableList.of());
  }

  /**
   * Whether the node satisfies every requirement. A term with no requirements at all matches no
   * node, as in Kubernetes, so that an empty term cannot silently widen an ORed list to every node.
   */
  public boolean matches(Map<String, String> nodeLabels, String nodeName) {
    requireNonNull(nodeLabels, "nodeLabels is null");
    requireNonNull(nodeName, "nodeName is null");
    if (matchExpressions.isEmpty() && matchFields.isEmpty()) {
      return false;
    }
    for (NodeSelectorRequirement expression : matchExpressions) {
      if (!expression.matches(nodeLabels)) {
        return false;
      }
    }
    Map<String, String> nodeFields = ImmutableMap.of(NODE_NAME_FIELD, nodeName);
    for (NodeSelectorRequirement field : matchFields) {
      if (!field.matches(nodeFields)) {
        return false;
      }
    }
    return true;
  }

  private static void validateField(NodeSelectorRequirement field) {
    if (!field.key().equals(NODE_NAME_FIELD)) {
      throw new IllegalArgumentException(
          "matchFields key must be " + NODE_NAME_FIELD + " but was: '" + field.key() + "'");
    }
    if (field.operator() != SelectorOperator.IN && field.operator() != SelectorOperator.NOT_IN) {
      throw new IllegalArgumentException(
          "matchFields operator must be In or NotIn but was: " + field.operator().k8sName());
    }
    if (field.values().size() != 1) {
      throw new IllegalArgumentException(
          "matchFields values must have exactly one element but had " + field.values().size());
    }
  }
}
