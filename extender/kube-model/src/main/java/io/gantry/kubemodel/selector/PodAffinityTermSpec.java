package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;

/**
 * One pod affinity or anti-affinity term as written in a scenario.
 *
 * @param labelSelector absent selects no pods, as in Kubernetes
 * @param namespaces empty means the pod's own namespace
 */
public record PodAffinityTermSpec(
    Optional<LabelSelectorSpec> labelSelector,
    List<String> namespaces,
    String topologyKey,
    int line) {
  public PodAffinityTermSpec {
    requireNonNull(labelSelector, "labelSelector is null");
    namespaces = ImmutableList.copyOf(requireNonNull(namespaces, "namespaces is null"));
    requireNonNull(topologyKey, "topologyKey is null");
  }
}
