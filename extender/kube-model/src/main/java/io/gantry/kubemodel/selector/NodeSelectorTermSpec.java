package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
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

  /** The engine's term, which the binder's checks already made valid. */
  public NodeSelectorTerm toTerm() {
    return new NodeSelectorTerm(requirements(matchExpressions), requirements(matchFields));
  }

  private static ImmutableList<NodeSelectorRequirement> requirements(
      List<NodeSelectorRequirementSpec> specs) {
    ImmutableList.Builder<NodeSelectorRequirement> out = ImmutableList.builder();
    specs.forEach(r -> out.add(new NodeSelectorRequirement(r.key(), r.operator(), r.values())));
    return out.build();
  }
}
