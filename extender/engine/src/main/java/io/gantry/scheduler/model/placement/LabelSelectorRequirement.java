package io.gantry.scheduler.model.placement;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Map;

/**
 * One match expression of a label selector. Unlike node selector requirements, label selectors
 * accept only In, NotIn, Exists and DoesNotExist.
 */
public record LabelSelectorRequirement(String key, SelectorOperator operator, List<String> values) {
  public LabelSelectorRequirement {
    requireNonNull(key, "key is null");
    requireNonNull(operator, "operator is null");
    values = ImmutableList.copyOf(requireNonNull(values, "values is null"));
    checkArgument(!key.isEmpty(), "labelSelectorRequirement key is empty");
    if (operator == SelectorOperator.GT || operator == SelectorOperator.LT) {
      throw new IllegalArgumentException(
          "labelSelectorRequirement operator must be In, NotIn, Exists or DoesNotExist but was: "
              + operator.k8sName());
    }
    operator.validateValues("labelSelectorRequirement", key, values);
  }

  public static LabelSelectorRequirement of(
      String key, SelectorOperator operator, String... values) {
    return new LabelSelectorRequirement(key, operator, ImmutableList.copyOf(values));
  }

  public boolean matches(Map<String, String> labels) {
    requireNonNull(labels, "labels is null");
    return operator.matches(key, values, labels);
  }
}
