package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Items that each carry a {@link PodScope}, filed under the scope's {@link PodScope.Guard}, so that
 * a pod finds the few items whose scope may select it without trying all of them. The candidates
 * still have to be checked with {@link PodScope#selects}. Items are never removed: a session holds
 * few distinct scopes.
 */
final class ScopeIndex<T> {
  private final Map<LabelKey, List<T>> byLabel = new HashMap<>();
  private final Map<String, List<T>> byKey = new HashMap<>();
  private final Map<String, List<T>> byNamespace = new HashMap<>();

  /** A label key and value. */
  record LabelKey(String key, String value) {
    LabelKey {
      requireNonNull(key, "key is null");
      requireNonNull(value, "value is null");
    }
  }

  void add(PodScope.Guard guard, T item) {
    requireNonNull(item, "item is null");
    switch (guard.kind()) {
      case LABEL -> {
        for (String value : guard.values()) {
          byLabel
              .computeIfAbsent(new LabelKey(guard.key(), value), k -> new ArrayList<>())
              .add(item);
        }
      }
      case KEY -> byKey.computeIfAbsent(guard.key(), k -> new ArrayList<>()).add(item);
      case NAMESPACE -> {
        for (String namespace : guard.values()) {
          byNamespace.computeIfAbsent(namespace, k -> new ArrayList<>()).add(item);
        }
      }
    }
  }

  /**
   * Every item whose guard the pod meets, each once (a pod meets at most one value of a guard); a
   * superset of the items whose scope selects the pod.
   */
  List<T> candidates(String namespace, Map<String, String> labels) {
    List<T> out = new ArrayList<>(byNamespace.getOrDefault(namespace, List.of()));
    if (byLabel.isEmpty() && byKey.isEmpty()) {
      return out;
    }
    for (Map.Entry<String, String> label : labels.entrySet()) {
      out.addAll(byKey.getOrDefault(label.getKey(), List.of()));
      out.addAll(byLabel.getOrDefault(new LabelKey(label.getKey(), label.getValue()), List.of()));
    }
    return out;
  }
}
