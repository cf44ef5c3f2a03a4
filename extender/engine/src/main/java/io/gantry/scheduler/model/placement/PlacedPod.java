package io.gantry.scheduler.model.placement;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;

/**
 * A pod already bound (or assumed) to a node, as inter-pod affinity sees it.
 *
 * @param requiredAntiAffinity the pod's own required anti-affinity terms; an empty namespaces list
 *     in a term means this pod's namespace
 */
public record PlacedPod(
    String namespace,
    String name,
    ImmutableSortedMap<String, String> labels,
    String nodeName,
    List<PodAffinityTerm> requiredAntiAffinity) {
  public PlacedPod {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    labels = ImmutableSortedMap.copyOf(requireNonNull(labels, "labels is null"));
    requireNonNull(nodeName, "nodeName is null");
    requiredAntiAffinity =
        ImmutableList.copyOf(requireNonNull(requiredAntiAffinity, "requiredAntiAffinity is null"));
  }
}
