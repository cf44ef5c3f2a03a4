package io.gantry.scheduler.model.placement;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Map;

/**
 * One requirement of a node selector term, validated as the Kubernetes API does: In and NotIn need
 * at least one value, Exists and DoesNotExist none, Gt and Lt exactly one integer.
 */
public record NodeSelectorRequirement(String key, SelectorOperator operator, List<String> values) {
  public NodeSelectorRequirement {
    requireNonNull(key, "key is null");
    requireNonNull(operator, "operator is null");
    values = ImmutableList.copyOf(requireNonNull(values, "values is null"));
    checkArgument(!key.isEmpty(), "nodeSelectorRequirement key is empty");
    operator.validateValues("nodeSelectorRequirement", key, values);
  }

  public static NodeSelectorRequirement of(
      String key, SelectorOperator operator, String... values) {
    return new NodeSelectorRequirement(key, operator, ImmutableList.copyOf(values));
  }

  /** Whether {@code labels} satisfy this requirement, as {@code labels.Requirement.Matches}. */
  public boolean matches(Map<String, String> labels) {
    requireNonNull(labels, "labels is null");
    return operator.matches(key, values, labels);
  }
}
