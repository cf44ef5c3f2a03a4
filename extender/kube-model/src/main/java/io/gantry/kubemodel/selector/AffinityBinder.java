package io.gantry.kubemodel.selector;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.List;
import java.util.Optional;

/**
 * Binds a Kubernetes affinity stanza, with the API server's validation rules. The preferred parts
 * are kept so that the stage that builds pods can reject them by line rather than drop them.
 */
public final class AffinityBinder {
  /** Label selectors take the set-based operators only (no Gt/Lt). */
  private static final SelectorOperator[] LABEL_SELECTOR_OPERATORS = {
    SelectorOperator.IN,
    SelectorOperator.NOT_IN,
    SelectorOperator.EXISTS,
    SelectorOperator.DOES_NOT_EXIST
  };

  private static final String REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution";
  private static final String PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution";
  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of("nodeAffinity", "podAffinity", "podAntiAffinity");
  private static final ImmutableSet<String> SCHEDULING_KEYS = ImmutableSet.of(REQUIRED, PREFERRED);
  private static final ImmutableSet<String> NODE_SELECTOR_KEYS =
      ImmutableSet.of("nodeSelectorTerms");
  private static final ImmutableSet<String> TERM_KEYS =
      ImmutableSet.of("matchExpressions", "matchFields");
  private static final ImmutableSet<String> REQUIREMENT_KEYS =
      ImmutableSet.of("key", "operator", "values");
  private static final ImmutableSet<String> PREFERRED_NODE_KEYS =
      ImmutableSet.of("weight", "preference");
  private static final ImmutableSet<String> POD_TERM_KEYS =
      ImmutableSet.of("labelSelector", "namespaces", "topologyKey");
  private static final ImmutableSet<String> WEIGHTED_POD_KEYS =
      ImmutableSet.of("weight", "podAffinityTerm");
  private static final ImmutableSet<String> LABEL_SELECTOR_KEYS =
      ImmutableSet.of("matchLabels", "matchExpressions");
  private static final String NODE_NAME_FIELD = "metadata.name";
  private static final int MIN_WEIGHT = 1;
  private static final int MAX_WEIGHT = 100;

  private AffinityBinder() {}

  public static Optional<AffinitySpec> bind(Optional<Field> field) throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    MapReader affinity = field.get().asMap(KEYS);
    Optional<Field> nodeAffinity = affinity.optional("nodeAffinity");
    return Optional.of(
        new AffinitySpec(
            nodeAffinity.isPresent()
                ? Optional.of(nodeAffinity(nodeAffinity.get()))
                : Optional.empty(),
            podAffinity(affinity.optional("podAffinity")),
            podAffinity(affinity.optional("podAntiAffinity")),
            affinity.line(),
            affinity.fieldLines()));
  }

  private static NodeAffinitySpec nodeAffinity(Field field) throws ScenarioException {
    MapReader nodeAffinity = field.asMap(SCHEDULING_KEYS);
    ImmutableList.Builder<NodeSelectorTermSpec> required = ImmutableList.builder();
    Optional<Field> requiredField = nodeAffinity.optional(REQUIRED);
    if (requiredField.isPresent()) {
      Field termsField =
          requiredField.get().asMap(NODE_SELECTOR_KEYS).required("nodeSelectorTerms");
      List<Field> terms = termsField.asList();
      if (terms.isEmpty()) {
        throw termsField.error("must list at least one term");
      }
      for (Field term : terms) {
        required.add(nodeSelectorTerm(term));
      }
    }
    ImmutableList.Builder<PreferredSchedulingTermSpec> preferred = ImmutableList.builder();
    for (Field item : nodeAffinity.list(PREFERRED)) {
      MapReader weighted = item.asMap(PREFERRED_NODE_KEYS);
      preferred.add(
          new PreferredSchedulingTermSpec(
              weight(weighted),
              nodeSelectorTerm(weighted.required("preference")),
              weighted.line()));
    }
    return new NodeAffinitySpec(required.build(), preferred.build(), nodeAffinity.line());
  }

  /** One node selector term, with the API server's checks of its requirements. */
  public static NodeSelectorTermSpec nodeSelectorTerm(Field field) throws ScenarioException {
    MapReader term = field.asMap(TERM_KEYS);
    ImmutableList.Builder<NodeSelectorRequirementSpec> expressions = ImmutableList.builder();
    for (Field item : term.list("matchExpressions")) {
      expressions.add(nodeRequirement(item));
    }
    ImmutableList.Builder<NodeSelectorRequirementSpec> fields = ImmutableList.builder();
    for (Field item : term.list("matchFields")) {
      NodeSelectorRequirementSpec requirement = nodeRequirement(item);
      MapReader reader = item.asMap(REQUIREMENT_KEYS);
      if (!requirement.key().equals(NODE_NAME_FIELD)) {
        throw reader.required("key").error("expected " + NODE_NAME_FIELD + ", the only node field");
      }
      if (requirement.operator() != SelectorOperator.IN
          && requirement.operator() != SelectorOperator.NOT_IN) {
        throw reader.required("operator").error("expected In or NotIn for a node field");
      }
      if (requirement.values().size() != 1) {
        throw reader.required("values").error("must have exactly one value for a node field");
      }
      fields.add(requirement);
    }
    return new NodeSelectorTermSpec(expressions.build(), fields.build(), term.line());
  }

  private static NodeSelectorRequirementSpec nodeRequirement(Field field) throws ScenarioException {
    MapReader requirement = field.asMap(REQUIREMENT_KEYS);
    String key = requirement.requiredString("key");
    SelectorOperator operator =
        requirement
            .required("operator")
            .asEnum(SelectorOperator.values(), SelectorOperator::k8sName);
    List<String> values = requirement.stringList("values");
    switch (operator) {
      case IN:
      case NOT_IN:
        requireValues(requirement, values, operator.k8sName());
        break;
      case EXISTS:
      case DOES_NOT_EXIST:
        requireNoValues(requirement, values, operator.k8sName());
        break;
      case GT:
      case LT:
        requireOneInteger(requirement, values, operator.k8sName());
        break;
    }
    return new NodeSelectorRequirementSpec(key, operator, values);
  }

  private static Optional<PodAffinitySpec> podAffinity(Optional<Field> field)
      throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    MapReader podAffinity = field.get().asMap(SCHEDULING_KEYS);
    ImmutableList.Builder<PodAffinityTermSpec> required = ImmutableList.builder();
    for (Field item : podAffinity.list(REQUIRED)) {
      required.add(podAffinityTerm(item));
    }
    ImmutableList.Builder<WeightedPodAffinityTermSpec> preferred = ImmutableList.builder();
    for (Field item : podAffinity.list(PREFERRED)) {
      MapReader weighted = item.asMap(WEIGHTED_POD_KEYS);
      preferred.add(
          new WeightedPodAffinityTermSpec(
              weight(weighted),
              podAffinityTerm(weighted.required("podAffinityTerm")),
              weighted.line()));
    }
    return Optional.of(
        new PodAffinitySpec(required.build(), preferred.build(), podAffinity.line()));
  }

  private static PodAffinityTermSpec podAffinityTerm(Field field) throws ScenarioException {
    MapReader term = field.asMap(POD_TERM_KEYS);
    Optional<Field> selectorField = term.optional("labelSelector");
    Optional<LabelSelectorSpec> selector =
        selectorField.isPresent()
            ? Optional.of(labelSelector(selectorField.get()))
            : Optional.empty();
    List<String> namespaces = term.stringList("namespaces");
    return new PodAffinityTermSpec(
        selector, namespaces, term.requiredString("topologyKey"), term.line());
  }

  private static LabelSelectorSpec labelSelector(Field field) throws ScenarioException {
    MapReader selector = field.asMap(LABEL_SELECTOR_KEYS);
    ImmutableList.Builder<LabelSelectorRequirementSpec> expressions = ImmutableList.builder();
    for (Field item : selector.list("matchExpressions")) {
      MapReader requirement = item.asMap(REQUIREMENT_KEYS);
      String key = requirement.requiredString("key");
      SelectorOperator operator =
          requirement
              .required("operator")
              .asEnum(LABEL_SELECTOR_OPERATORS, SelectorOperator::k8sName);
      List<String> values = requirement.stringList("values");
      if (operator == SelectorOperator.IN || operator == SelectorOperator.NOT_IN) {
        requireValues(requirement, values, operator.k8sName());
      } else {
        requireNoValues(requirement, values, operator.k8sName());
      }
      expressions.add(new LabelSelectorRequirementSpec(key, operator, values));
    }
    return new LabelSelectorSpec(selector.stringMap("matchLabels"), expressions.build());
  }

  private static int weight(MapReader weighted) throws ScenarioException {
    Field field = weighted.required("weight");
    int weight = field.asInt(MIN_WEIGHT);
    if (weight > MAX_WEIGHT) {
      throw field.error("must be <= " + MAX_WEIGHT + ", got " + weight);
    }
    return weight;
  }

  private static void requireValues(MapReader requirement, List<String> values, String operator)
      throws ScenarioException {
    if (values.isEmpty()) {
      throw requirement.error(
          "values", valuesLine(requirement), "must not be empty for operator " + operator);
    }
  }

  private static void requireNoValues(MapReader requirement, List<String> values, String operator)
      throws ScenarioException {
    if (!values.isEmpty()) {
      throw requirement.error(
          "values", valuesLine(requirement), "must be empty for operator " + operator);
    }
  }

  private static void requireOneInteger(MapReader requirement, List<String> values, String operator)
      throws ScenarioException {
    boolean valid = values.size() == 1;
    if (valid) {
      try {
        Long.parseLong(values.get(0));
      } catch (NumberFormatException e) {
        valid = false;
      }
    }
    if (!valid) {
      throw requirement.error(
          "values", valuesLine(requirement), "must be a single integer for operator " + operator);
    }
  }

  private static int valuesLine(MapReader requirement) {
    return requirement.optional("values").map(Field::line).orElse(requirement.line());
  }
}
