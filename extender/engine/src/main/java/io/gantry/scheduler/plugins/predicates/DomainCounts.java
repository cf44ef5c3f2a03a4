package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;

/**
 * How many pods of some set are in each topology domain of one topology key: the pods' nodes'
 * values of {@code topologyKey}. A pod on a node without the key is in no domain and is not
 * counted.
 */
final class DomainCounts {
  private final String topologyKey;
  private final Map<String, Integer> byValue = new HashMap<>();
  private int total;

  DomainCounts(String topologyKey) {
    this.topologyKey = requireNonNull(topologyKey, "topologyKey is null");
  }

  String topologyKey() {
    return topologyKey;
  }

  /** Adds {@code delta} (±1) pods on a node with these labels. */
  void add(Map<String, String> nodeLabels, int delta) {
    String value = nodeLabels.get(topologyKey);
    if (value == null) {
      return;
    }
    int now = byValue.getOrDefault(value, 0) + delta;
    if (now < 0) {
      throw new IllegalStateException("negative pod count in domain " + topologyKey + "=" + value);
    }
    if (now == 0) {
      byValue.remove(value);
    } else {
      byValue.put(value, now);
    }
    total += delta;
  }

  int count(String value) {
    return byValue.getOrDefault(value, 0);
  }

  /** Pods counted in any domain. */
  int total() {
    return total;
  }
}
