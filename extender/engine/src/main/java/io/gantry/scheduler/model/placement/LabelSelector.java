package io.gantry.scheduler.model.placement;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Map;

/**
 * A Kubernetes label selector: every matchLabels entry and every match expression must hold, so an
 * empty selector matches every label set ({@code metav1.LabelSelectorAsSelector}).
 */
public record LabelSelector(
    ImmutableSortedMap<String, String> matchLabels,
    List<LabelSelectorRequirement> matchExpressions) {
  private static final LabelSelector EVERYTHING =
      new LabelSelector(ImmutableSortedMap.of(), ImmutableList.of());

  public LabelSelector {
    matchLabels = ImmutableSortedMap.copyOf(requireNonNull(matchLabels, "matchLabels is null"));
    matchExpressions =
        ImmutableList.copyOf(requireNonNull(matchExpressions, "matchExpressions is null"));
  }

  public static LabelSelector everything() {
    return EVERYTHING;
  }

  public static LabelSelector matchLabels(Map<String, String> matchLabels) {
    return new LabelSelector(ImmutableSortedMap.copyOf(matchLabels), ImmutableList.of());
  }

  public boolean isEmpty() {
    return matchLabels.isEmpty() && matchExpressions.isEmpty();
  }

  public boolean matches(Map<String, String> labels) {
    requireNonNull(labels, "labels is null");
    for (Map.Entry<String, String> required : matchLabels.entrySet()) {
      if (!required.getValue().equals(labels.get(required.getKey()))) {
        return false;
      }
    }
    for (LabelSelectorRequirement expression : matchExpressions) {
      if (!expression.matches(labels)) {
        return false;
      }
    }
    return true;
  }
}
