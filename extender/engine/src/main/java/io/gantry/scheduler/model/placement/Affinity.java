package io.gantry.scheduler.model.placement;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * The required (scheduling-time) parts of a pod's affinity. Preferred terms are scoring concerns
 * and live elsewhere.
 *
 * @param requiredNodeTerms ORed node selector terms; an empty list means no node affinity, not "no
 *     node" (Kubernetes rejects a present-but-empty list at admission, so the two never collide)
 * @param requiredPodAffinity terms that must all be satisfied by pods already in the domain
 * @param requiredPodAntiAffinity terms that no pod already in the domain may satisfy
 */
public record Affinity(
    List<NodeSelectorTerm> requiredNodeTerms,
    List<PodAffinityTerm> requiredPodAffinity,
    List<PodAffinityTerm> requiredPodAntiAffinity) {
  private static final Affinity NONE =
      new Affinity(ImmutableList.of(), ImmutableList.of(), ImmutableList.of());

  public Affinity {
    requiredNodeTerms =
        ImmutableList.copyOf(requireNonNull(requiredNodeTerms, "requiredNodeTerms is null"));
    requiredPodAffinity =
        ImmutableList.copyOf(requireNonNull(requiredPodAffinity, "requiredPodAffinity is null"));
    requiredPodAntiAffinity =
        ImmutableList.copyOf(
            requireNonNull(requiredPodAntiAffinity, "requiredPodAntiAffinity is null"));
  }

  public static Affinity none() {
    return NONE;
  }

  public boolean isEmpty() {
    return requiredNodeTerms.isEmpty()
        && requiredPodAffinity.isEmpty()
        && requiredPodAntiAffinity.isEmpty();
  }
}
