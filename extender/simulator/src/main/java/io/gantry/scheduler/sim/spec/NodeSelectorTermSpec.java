package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/** A node selector term: all of its requirements must match. */
public record NodeSelectorTermSpec(
    List<NodeSelectorRequirementSpec> matchExpressions,
    List<NodeSelectorRequirementSpec> matchFields,
    int line) {
  public NodeSelectorTermSpec {
    matchExpressions =
        ImmutableList.copyOf(requireNonNull(matchExpressions, "matchExpressions is null"));
    matchFields = ImmutableList.copyOf(requireNonNull(matchFields, "matchFields is null"));
  }
}
