package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Preconditions;
import com.google.common.collect.ImmutableSortedSet;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.LabelSelectorRequirement;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.Map;

/**
 * The pods a term is about, with its namespaces resolved: a term with no namespaces means the
 * namespace of the pod that declares it. Two terms that select the same pods resolve to equal
 * scopes, so their work is shared.
 *
 * @param namespaces never empty
 */
record PodScope(ImmutableSortedSet<String> namespaces, LabelSelector selector) {
  PodScope {
    requireNonNull(namespaces, "namespaces is null");
    requireNonNull(selector, "selector is null");
    Preconditions.checkArgument(!namespaces.isEmpty(), "namespaces is empty");
  }

  static PodScope of(PodAffinityTerm term, String declaringNamespace) {
    requireNonNull(term, "term is null");
    requireNonNull(declaringNamespace, "declaringNamespace is null");
    ImmutableSortedSet<String> namespaces =
        term.namespaces().isEmpty()
            ? ImmutableSortedSet.of(declaringNamespace)
            : ImmutableSortedSet.copyOf(term.namespaces());
    return new PodScope(namespaces, term.labelSelector());
  }

  /** As {@link PodAffinityTerm#selects}, counting one comparison. */
  boolean selects(String namespace, Map<String, String> labels, ComparisonCounter comparisons) {
    comparisons.increment();
    return namespaces.contains(namespace) && selector.matches(labels);
  }

  /**
   * One condition every selected pod meets, to file the scope under: a matchLabels entry, else an
   * In expression, else an Exists expression, else the namespaces.
   */
  Guard guard() {
    if (!selector.matchLabels().isEmpty()) {
      Map.Entry<String, String> first = selector.matchLabels().entrySet().iterator().next();
      return new Guard(Guard.Kind.LABEL, first.getKey(), ImmutableSortedSet.of(first.getValue()));
    }
    for (LabelSelectorRequirement e : selector.matchExpressions()) {
      if (e.operator() == SelectorOperator.IN) {
        return new Guard(Guard.Kind.LABEL, e.key(), ImmutableSortedSet.copyOf(e.values()));
      }
    }
    for (LabelSelectorRequirement e : selector.matchExpressions()) {
      if (e.operator() == SelectorOperator.EXISTS) {
        return new Guard(Guard.Kind.KEY, e.key(), ImmutableSortedSet.of());
      }
    }
    return new Guard(Guard.Kind.NAMESPACE, "", namespaces);
  }

  /**
   * A necessary condition of a scope. {@code LABEL}: label {@code key} has one of {@code values};
   * {@code KEY}: the pod has label {@code key}; {@code NAMESPACE}: the pod is in one of {@code
   * values}. A pod meets at most one value of a guard, since it has one namespace and one value per
   * label key.
   */
  record Guard(Kind kind, String key, ImmutableSortedSet<String> values) {
    enum Kind {
      LABEL,
      KEY,
      NAMESPACE
    }

    Guard {
      requireNonNull(kind, "kind is null");
      requireNonNull(key, "key is null");
      requireNonNull(values, "values is null");
    }
  }
}
