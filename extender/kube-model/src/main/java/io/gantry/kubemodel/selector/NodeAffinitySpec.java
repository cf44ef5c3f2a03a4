package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * A pod's node affinity as written in a scenario.
 *
 * @param required the terms of requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
 *     any of which must match; empty when there is no required part
 * @param preferred preferredDuringSchedulingIgnoredDuringExecution
 */
public record NodeAffinitySpec(
    List<NodeSelectorTermSpec> required, List<PreferredSchedulingTermSpec> preferred, int line) {
  public NodeAffinitySpec {
    required = ImmutableList.copyOf(requireNonNull(required, "required is null"));
    preferred = ImmutableList.copyOf(requireNonNull(preferred, "preferred is null"));
  }
}
