package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Required inter-pod affinity and anti-affinity, as kube-scheduler's InterPodAffinity filter:
 *
 * <ul>
 *   <li>affinity: for every term the node must carry the term's topology key, and its domain must
 *       hold a placed pod that matches <em>all</em> of the incoming pod's affinity terms; a pod
 *       whose terms match itself may still go first when no such pod exists in any domain;
 *   <li>anti-affinity: no domain of the node (per term) may hold a pod matching that term;
 *   <li>symmetry: no domain of the node may hold a placed pod whose own required anti-affinity
 *       matches the incoming pod.
 * </ul>
 *
 * A node without a term's topology key fails every affinity term and is in no domain for
 * anti-affinity. {@link #prepare} scans the placed pods once per incoming pod; {@link
 * PreparedPodAffinity#check} is then a few set lookups per node.
 */
public final class PodAffinityRule {
  private PodAffinityRule() {}

  /**
   * Scans {@code view} once and returns a per-pod check to run against each candidate node.
   *
   * @param namespace the incoming pod's namespace, used for its terms with no namespaces
   * @param labels the incoming pod's labels, matched against placed pods' anti-affinity
   * @param affinity the incoming pod's affinity; only its pod terms are used here
   */
  public static PreparedPodAffinity prepare(
      String namespace, Map<String, String> labels, Affinity affinity, PlacedPodsView view) {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(affinity, "affinity is null");
    requireNonNull(view, "view is null");
    List<PodAffinityTerm> affinityTerms = affinity.requiredPodAffinity();
    List<PodAffinityTerm> antiAffinityTerms = affinity.requiredPodAntiAffinity();

    ImmutableSet.Builder<TopologyDomain> affinityDomains = ImmutableSet.builder();
    ImmutableSet.Builder<TopologyDomain> antiAffinityDomains = ImmutableSet.builder();
    ImmutableSet.Builder<TopologyDomain> existingAntiAffinityDomains = ImmutableSet.builder();
    for (PlacedPod pod : view.placedPods()) {
      for (PodAffinityTerm term : pod.requiredAntiAffinity()) {
        if (term.selects(pod.namespace(), namespace, labels)) {
          addDomain(existingAntiAffinityDomains, term, pod, view);
        }
      }
      if (matchesAll(affinityTerms, namespace, pod.namespace(), pod.labels())) {
        for (PodAffinityTerm term : affinityTerms) {
          addDomain(affinityDomains, term, pod, view);
        }
      }
      for (PodAffinityTerm term : antiAffinityTerms) {
        if (term.selects(namespace, pod.namespace(), pod.labels())) {
          addDomain(antiAffinityDomains, term, pod, view);
        }
      }
    }
    ImmutableSet<TopologyDomain> affinityDomainSet = affinityDomains.build();
    // kube-scheduler lets a self-matching pod go first only when no placed pod matches its terms
    // in any domain; otherwise a later pod of the group could start a second, disjoint domain.
    boolean mayStartFirstDomain =
        affinityDomainSet.isEmpty() && matchesAll(affinityTerms, namespace, namespace, labels);
    return new PreparedPodAffinity(
        affinityTerms,
        antiAffinityTerms,
        affinityDomainSet,
        antiAffinityDomains.build(),
        existingAntiAffinityDomains.build(),
        mayStartFirstDomain);
  }

  /**
   * One-shot form of {@code prepare(...).check(nodeLabels)}; it scans every placed pod, so use
   * {@link #prepare} when checking more than one node.
   */
  public static Optional<PodAffinityFailure> check(
      String namespace,
      Map<String, String> labels,
      Affinity affinity,
      Map<String, String> nodeLabels,
      PlacedPodsView view) {
    return prepare(namespace, labels, affinity, view).check(nodeLabels);
  }

  // As kube's podMatchesAllAffinityTerms: an empty term list matches no pod.
  private static boolean matchesAll(
      List<PodAffinityTerm> terms,
      String declaringNamespace,
      String podNamespace,
      Map<String, String> podLabels) {
    if (terms.isEmpty()) {
      return false;
    }
    for (PodAffinityTerm term : terms) {
      if (!term.selects(declaringNamespace, podNamespace, podLabels)) {
        return false;
      }
    }
    return true;
  }

  private static void addDomain(
      ImmutableSet.Builder<TopologyDomain> domains,
      PodAffinityTerm term,
      PlacedPod pod,
      PlacedPodsView view) {
    String value = view.nodeLabels(pod.nodeName()).get(term.topologyKey());
    if (value != null) {
      domains.add(new TopologyDomain(term.topologyKey(), value));
    }
  }
}
