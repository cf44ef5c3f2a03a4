package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;

/** A label selector: every label and every expression must match; an empty one matches all pods. */
public record LabelSelectorSpec(
    ImmutableSortedMap<String, String> matchLabels,
    List<LabelSelectorRequirementSpec> matchExpressions) {
  public LabelSelectorSpec {
    requireNonNull(matchLabels, "matchLabels is null");
    matchExpressions =
        ImmutableList.copyOf(requireNonNull(matchExpressions, "matchExpressions is null"));
  }
}
