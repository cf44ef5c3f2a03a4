package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.List;

public record LabelSelectorRequirementSpec(
    String key, SelectorOperator operator, List<String> values) {
  public LabelSelectorRequirementSpec {
    requireNonNull(key, "key is null");
    requireNonNull(operator, "operator is null");
    values = ImmutableList.copyOf(requireNonNull(values, "values is null"));
  }
}
