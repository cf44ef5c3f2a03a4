package io.gantry.scheduler.kube.snapshot;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.LabelSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.model.placement.TolerationOperator;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pod spec's node selector, tolerations and required (anti-)affinity as the engine's placement
 * values, and node taints. Preferred terms are scoring concerns the engine does not read from the
 * snapshot. A value the API server would have rejected throws {@link IllegalArgumentException}.
 */
final class PodPlacement {
  private PodPlacement() {}

  static PodPlacementRequirements of(V1PodSpec spec) {
    if (spec == null) {
      return PodPlacementRequirements.none();
    }
    Map<String, String> selector = spec.getNodeSelector();
    List<V1Toleration> tolerations = spec.getTolerations();
    V1Affinity affinity = spec.getAffinity();
    if ((selector == null || selector.isEmpty())
        && (tolerations == null || tolerations.isEmpty())
        && affinity == null) {
      return PodPlacementRequirements.none();
    }
    ImmutableList.Builder<Toleration> tols = ImmutableList.builder();
    for (V1Toleration t : nonNull(tolerations)) {
      tols.add(toleration(t));
    }
    return new PodPlacementRequirements(
        selector == null ? ImmutableSortedMap.of() : ImmutableSortedMap.copyOf(selector),
        tols.build(),
        affinity(affinity));
  }

  static ImmutableList<Taint> taints(List<V1Taint> taints) {
    ImmutableList.Builder<Taint> out = ImmutableList.builder();
    for (V1Taint t : nonNull(taints)) {
      out.add(
          new Taint(
              t.getKey(),
              t.getValue() == null ? "" : t.getValue(),
              TaintEffect.parse(t.getEffect())));
    }
    return out.build();
  }

  private static Toleration toleration(V1Toleration t) {
    String key = t.getKey() == null ? "" : t.getKey();
    TolerationOperator operator =
        t.getOperator() == null || t.getOperator().isEmpty()
            ? TolerationOperator.EQUAL
            : TolerationOperator.parse(t.getOperator());
    Optional<TaintEffect> effect =
        t.getEffect() == null || t.getEffect().isEmpty()
            ? Optional.empty()
            : Optional.of(TaintEffect.parse(t.getEffect()));
    return new Toleration(key, operator, t.getValue() == null ? "" : t.getValue(), effect);
  }

  private static Affinity affinity(V1Affinity a) {
    if (a == null) {
      return Affinity.none();
    }
    ImmutableList.Builder<NodeSelectorTerm> nodeTerms = ImmutableList.builder();
    if (a.getNodeAffinity() != null
        && a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
      for (V1NodeSelectorTerm term :
          nonNull(
              a.getNodeAffinity()
                  .getRequiredDuringSchedulingIgnoredDuringExecution()
                  .getNodeSelectorTerms())) {
        nodeTerms.add(
            new NodeSelectorTerm(
                nodeRequirements(term.getMatchExpressions()),
                nodeRequirements(term.getMatchFields())));
      }
    }
    List<PodAffinityTerm> podAffinity =
        a.getPodAffinity() == null
            ? List.of()
            : podTerms(a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
    List<PodAffinityTerm> antiAffinity =
        a.getPodAntiAffinity() == null
            ? List.of()
            : podTerms(a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
    return new Affinity(nodeTerms.build(), podAffinity, antiAffinity);
  }

  private static ImmutableList<NodeSelectorRequirement> nodeRequirements(
      List<V1NodeSelectorRequirement> requirements) {
    ImmutableList.Builder<NodeSelectorRequirement> out = ImmutableList.builder();
    for (V1NodeSelectorRequirement r : nonNull(requirements)) {
      out.add(
          new NodeSelectorRequirement(
              r.getKey(), SelectorOperator.parse(r.getOperator()), nonNull(r.getValues())));
    }
    return out.build();
  }

  private static List<PodAffinityTerm> podTerms(List<V1PodAffinityTerm> terms) {
    ImmutableList.Builder<PodAffinityTerm> out = ImmutableList.builder();
    for (V1PodAffinityTerm t : nonNull(terms)) {
      out.add(
          new PodAffinityTerm(
              labelSelector(t.getLabelSelector()), nonNull(t.getNamespaces()), t.getTopologyKey()));
    }
    return out.build();
  }

  private static LabelSelector labelSelector(V1LabelSelector s) {
    if (s == null) {
      return LabelSelector.everything();
    }
    ImmutableList.Builder<LabelSelectorRequirement> expressions = ImmutableList.builder();
    for (V1LabelSelectorRequirement r : nonNull(s.getMatchExpressions())) {
      expressions.add(
          new LabelSelectorRequirement(
              r.getKey(), SelectorOperator.parse(r.getOperator()), nonNull(r.getValues())));
    }
    return new LabelSelector(
        s.getMatchLabels() == null
            ? ImmutableSortedMap.of()
            : ImmutableSortedMap.copyOf(s.getMatchLabels()),
        expressions.build());
  }

  private static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
