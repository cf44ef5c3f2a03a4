package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.placement.PlacedPod;

/**
 * A placed pod in a {@link PodAffinityIndex}: its unique key there and its node's labels, read once
 * when it was added so that removing it undoes exactly what adding it did.
 */
record IndexedPod(String key, PlacedPod pod, ImmutableSortedMap<String, String> nodeLabels) {
  IndexedPod {
    requireNonNull(key, "key is null");
    requireNonNull(pod, "pod is null");
    requireNonNull(nodeLabels, "nodeLabels is null");
  }

  String namespace() {
    return pod.namespace();
  }
}
