package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The inter-pod affinity check for one incoming pod, with the placed pods already reduced to the
 * topology domains that matter. Immutable and therefore safe to share across threads checking nodes
 * in parallel. It reflects the view at {@link PodAffinityRule#prepare} time: prepare again after
 * placing or evicting pods.
 */
public final class PreparedPodAffinity {
  private final ImmutableList<PodAffinityTerm> affinityTerms;
  private final ImmutableList<PodAffinityTerm> antiAffinityTerms;
  private final ImmutableSet<TopologyDomain> affinityDomains;
  private final ImmutableSet<TopologyDomain> antiAffinityDomains;
  private final ImmutableSet<TopologyDomain> existingAntiAffinityDomains;
  private final boolean mayStartFirstDomain;

  PreparedPodAffinity(
      List<PodAffinityTerm> affinityTerms,
      List<PodAffinityTerm> antiAffinityTerms,
      ImmutableSet<TopologyDomain> affinityDomains,
      ImmutableSet<TopologyDomain> antiAffinityDomains,
      ImmutableSet<TopologyDomain> existingAntiAffinityDomains,
      boolean mayStartFirstDomain) {
    this.affinityTerms = ImmutableList.copyOf(affinityTerms);
    this.antiAffinityTerms = ImmutableList.copyOf(antiAffinityTerms);
    this.affinityDomains = requireNonNull(affinityDomains, "affinityDomains is null");
    this.antiAffinityDomains = requireNonNull(antiAffinityDomains, "antiAffinityDomains is null");
    this.existingAntiAffinityDomains =
        requireNonNull(existingAntiAffinityDomains, "existingAntiAffinityDomains is null");
    this.mayStartFirstDomain = mayStartFirstDomain;
  }

  /**
   * True when no node can fail this check, so callers may skip it (kube-scheduler's PreFilter
   * returns Skip in the same situation).
   */
  public boolean passesEveryNode() {
    return affinityTerms.isEmpty()
        && antiAffinityTerms.isEmpty()
        && existingAntiAffinityDomains.isEmpty();
  }

  /**
   * The first failure in kube-scheduler's order (affinity, anti-affinity, existing pods'
   * anti-affinity), or empty when the node passes.
   */
  public Optional<PodAffinityFailure> check(Map<String, String> nodeLabels) {
    requireNonNull(nodeLabels, "nodeLabels is null");
    if (!satisfiesAffinity(nodeLabels)) {
      return Optional.of(PodAffinityFailure.AFFINITY_RULES_NOT_MATCH);
    }
    if (!satisfiesAntiAffinity(nodeLabels)) {
      return Optional.of(PodAffinityFailure.ANTI_AFFINITY_RULES_NOT_MATCH);
    }
    if (!satisfiesExistingAntiAffinity(nodeLabels)) {
      return Optional.of(PodAffinityFailure.EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
    }
    return Optional.empty();
  }

  private boolean satisfiesAffinity(Map<String, String> nodeLabels) {
    boolean everyDomainHasMatch = true;
    for (PodAffinityTerm term : affinityTerms) {
      String value = nodeLabels.get(term.topologyKey());
      if (value == null) {
        // Even a pod allowed to go first needs every topology label, or its followers could
        // never join its domain.
        return false;
      }
      if (!affinityDomains.contains(new TopologyDomain(term.topologyKey(), value))) {
        everyDomainHasMatch = false;
      }
    }
    return everyDomainHasMatch || mayStartFirstDomain;
  }

  private boolean satisfiesAntiAffinity(Map<String, String> nodeLabels) {
    for (PodAffinityTerm term : antiAffinityTerms) {
      String value = nodeLabels.get(term.topologyKey());
      if (value != null
          && antiAffinityDomains.contains(new TopologyDomain(term.topologyKey(), value))) {
        return false;
      }
    }
    return true;
  }

  private boolean satisfiesExistingAntiAffinity(Map<String, String> nodeLabels) {
    if (existingAntiAffinityDomains.isEmpty()) {
      return true;
    }
    // The terms' keys come from pods elsewhere, so probe every label of this node; the answer does
    // not depend on the map's iteration order.
    for (Map.Entry<String, String> label : nodeLabels.entrySet()) {
      if (existingAntiAffinityDomains.contains(
          new TopologyDomain(label.getKey(), label.getValue()))) {
        return false;
      }
    }
    return true;
  }
}
