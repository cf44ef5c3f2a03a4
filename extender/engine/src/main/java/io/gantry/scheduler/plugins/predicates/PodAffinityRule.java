package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.framework.fit.PodAffinityMismatch;
import io.gantry.scheduler.model.placement.Affinity;
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
 * anti-affinity. These entry points index a one-off {@link PlacedPodsView}; a scheduler that checks
 * many pods against changing placements keeps one {@link PodAffinityIndex} current instead.
 */
public final class PodAffinityRule {
  private PodAffinityRule() {}

  /**
   * Reads {@code view} once and returns a per-pod check to run against each candidate node.
   *
   * @param namespace the incoming pod's namespace, used for its terms with no namespaces
   * @param labels the incoming pod's labels, matched against placed pods' anti-affinity
   * @param affinity the incoming pod's affinity; only its pod terms are used here
   */
  public static PreparedPodAffinity prepare(
      String namespace, Map<String, String> labels, Affinity affinity, PlacedPodsView view) {
    requireNonNull(view, "view is null");
    return PodAffinityIndex.of(view, new ComparisonCounter()).prepare(namespace, labels, affinity);
  }

  /**
   * One-shot form of {@code prepare(...).check(nodeLabels)}; it reads every placed pod, so use
   * {@link #prepare} when checking more than one node.
   */
  public static Optional<PodAffinityMismatch> check(
      String namespace,
      Map<String, String> labels,
      Affinity affinity,
      Map<String, String> nodeLabels,
      PlacedPodsView view) {
    return prepare(namespace, labels, affinity, view).check(nodeLabels);
  }
}
