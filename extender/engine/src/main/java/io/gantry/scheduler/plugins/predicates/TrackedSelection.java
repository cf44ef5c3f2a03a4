package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The indexed pods that every one of some scopes selects (one scope for an anti-affinity term, all
 * of a pod's affinity terms for affinity), kept current as pods come and go, with their counts per
 * topology domain for each topology key asked about so far.
 */
final class TrackedSelection {
  private final ImmutableList<PodScope> scopes;
  private final Map<String, IndexedPod> matching = new LinkedHashMap<>();
  private final Map<String, DomainCounts> countsByKey = new LinkedHashMap<>();

  TrackedSelection(List<PodScope> scopes) {
    this.scopes = ImmutableList.copyOf(requireNonNull(scopes, "scopes is null"));
    if (this.scopes.isEmpty()) {
      throw new IllegalArgumentException("a selection needs at least one scope");
    }
  }

  ImmutableList<PodScope> scopes() {
    return scopes;
  }

  /** Whether every scope selects the pod; stops at the first that does not. */
  boolean selects(String namespace, Map<String, String> labels, ComparisonCounter comparisons) {
    for (PodScope scope : scopes) {
      if (!scope.selects(namespace, labels, comparisons)) {
        return false;
      }
    }
    return true;
  }

  boolean contains(String podKey) {
    return matching.containsKey(podKey);
  }

  /** Adds a pod this selection selects. */
  void add(IndexedPod pod) {
    matching.put(pod.key(), pod);
    for (DomainCounts counts : countsByKey.values()) {
      counts.add(pod.nodeLabels(), 1);
    }
  }

  /** Removes the pod if this selection holds it. */
  void remove(IndexedPod pod) {
    if (matching.remove(pod.key()) != null) {
      for (DomainCounts counts : countsByKey.values()) {
        counts.add(pod.nodeLabels(), -1);
      }
    }
  }

  /** The selected pods per domain of {@code topologyKey}; counted from the pods on first use. */
  DomainCounts counts(String topologyKey) {
    DomainCounts counts = countsByKey.get(topologyKey);
    if (counts == null) {
      counts = new DomainCounts(topologyKey);
      for (IndexedPod pod : matching.values()) {
        counts.add(pod.nodeLabels(), 1);
      }
      countsByKey.put(topologyKey, counts);
    }
    return counts;
  }
}
