package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

/** An entry of pod(Anti)Affinity.preferredDuringSchedulingIgnoredDuringExecution. */
public record WeightedPodAffinityTermSpec(
    int weight, PodAffinityTermSpec podAffinityTerm, int line) {
  public WeightedPodAffinityTermSpec {
    requireNonNull(podAffinityTerm, "podAffinityTerm is null");
  }
}
