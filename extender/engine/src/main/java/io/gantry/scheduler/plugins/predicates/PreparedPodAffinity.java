package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.ExistingPodAntiAffinityConflict;
import io.gantry.scheduler.framework.fit.PodAffinityMismatch;
import io.gantry.scheduler.framework.fit.PodAffinityUnsatisfied;
import io.gantry.scheduler.framework.fit.PodAntiAffinityConflict;
import java.util.Map;
import java.util.Optional;

/**
 * The inter-pod affinity check for one incoming pod: per term, the per-domain counts of the placed
 * pods that matter, so checking a node costs O(1) per term. It reads the {@link PodAffinityIndex}
 * it came from and is valid until that index next changes: prepare again after placing or evicting
 * pods ({@link #check} throws when the index changed). Reading only, it may be shared by threads
 * checking nodes in parallel while the index does not change.
 */
public final class PreparedPodAffinity {
  private final PodAffinityIndex index;
  private final long indexChanges;
  private final boolean hasAffinity;
  private final ImmutableList<DomainLookup> affinity;
  private final boolean mayStartFirstDomain;
  private final ImmutableList<DomainLookup> antiAffinity;
  private final ImmutableList<DomainLookup> existingAntiAffinity;

  /**
   * @param affinity the pods matching all affinity terms, one lookup per distinct topology key
   * @param antiAffinity the pods matching each anti-affinity term, one lookup per term
   * @param existingAntiAffinity per anti-affinity term of placed pods that selects the incoming
   *     pod, the pods holding it; terms no pod in any domain holds are left out
   */
  PreparedPodAffinity(
      PodAffinityIndex index,
      boolean hasAffinity,
      ImmutableList<DomainLookup> affinity,
      boolean mayStartFirstDomain,
      ImmutableList<DomainLookup> antiAffinity,
      ImmutableList<DomainLookup> existingAntiAffinity) {
    this.index = requireNonNull(index, "index is null");
    this.indexChanges = index.changes();
    this.hasAffinity = hasAffinity;
    this.affinity = requireNonNull(affinity, "affinity is null");
    this.mayStartFirstDomain = mayStartFirstDomain;
    this.antiAffinity = requireNonNull(antiAffinity, "antiAffinity is null");
    this.existingAntiAffinity =
        requireNonNull(existingAntiAffinity, "existingAntiAffinity is null");
  }

  /**
   * True when no node can fail this check, so callers may skip it (kube-scheduler's PreFilter
   * returns Skip in the same situation).
   */
  public boolean passesEveryNode() {
    return !hasAffinity && antiAffinity.isEmpty() && existingAntiAffinity.isEmpty();
  }

  /**
   * The first failure in kube-scheduler's order (affinity, anti-affinity, existing pods'
   * anti-affinity), or empty when the node passes.
   */
  public Optional<PodAffinityMismatch> check(Map<String, String> nodeLabels) {
    requireNonNull(nodeLabels, "nodeLabels is null");
    if (index.changes() != indexChanges) {
      throw new IllegalStateException("the placed pods changed since this check was prepared");
    }
    if (!satisfiesAffinity(nodeLabels)) {
      return Optional.of(new PodAffinityUnsatisfied());
    }
    if (anyOccupies(antiAffinity, nodeLabels)) {
      return Optional.of(new PodAntiAffinityConflict());
    }
    if (anyOccupies(existingAntiAffinity, nodeLabels)) {
      return Optional.of(new ExistingPodAntiAffinityConflict());
    }
    return Optional.empty();
  }

  private boolean satisfiesAffinity(Map<String, String> nodeLabels) {
    boolean everyDomainHasMatch = true;
    for (DomainLookup lookup : affinity) {
      if (!nodeLabels.containsKey(lookup.topologyKey())) {
        // Even a pod allowed to go first needs every topology label, or its followers could
        // never join its domain.
        return false;
      }
      if (!lookup.occupies(nodeLabels)) {
        everyDomainHasMatch = false;
      }
    }
    return everyDomainHasMatch || mayStartFirstDomain;
  }

  private static boolean anyOccupies(
      ImmutableList<DomainLookup> lookups, Map<String, String> nodeLabels) {
    for (DomainLookup lookup : lookups) {
      if (lookup.occupies(nodeLabels)) {
        return true;
      }
    }
    return false;
  }
}
