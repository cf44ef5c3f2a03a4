package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import io.gantry.scheduler.framework.fit.ExistingPodAntiAffinityConflict;
import io.gantry.scheduler.framework.fit.PodAffinityMismatch;
import io.gantry.scheduler.framework.fit.PodAffinityUnsatisfied;
import io.gantry.scheduler.framework.fit.PodAntiAffinityConflict;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The test oracle for inter-pod affinity: the straightforward kube-scheduler check that compares
 * the incoming pod with every placed pod, as Gantry did before {@link PodAffinityIndex}. The
 * indexed implementation must decide exactly what this decides.
 */
public final class ScanningPodAffinity {
  private final ImmutableSet<Domain> affinityDomains;
  private final ImmutableSet<Domain> antiAffinityDomains;
  private final ImmutableSet<Domain> existingAntiAffinityDomains;
  private final List<PodAffinityTerm> affinityTerms;
  private final List<PodAffinityTerm> antiAffinityTerms;
  private final boolean mayStartFirstDomain;

  /** Counts term-versus-pod comparisons, the unit {@link ComparisonCounter} counts. */
  public static final class Comparisons {
    private long count;

    public long count() {
      return count;
    }
  }

  private record Domain(String key, String value) {}

  private ScanningPodAffinity(
      ImmutableSet<Domain> affinityDomains,
      ImmutableSet<Domain> antiAffinityDomains,
      ImmutableSet<Domain> existingAntiAffinityDomains,
      List<PodAffinityTerm> affinityTerms,
      List<PodAffinityTerm> antiAffinityTerms,
      boolean mayStartFirstDomain) {
    this.affinityDomains = affinityDomains;
    this.antiAffinityDomains = antiAffinityDomains;
    this.existingAntiAffinityDomains = existingAntiAffinityDomains;
    this.affinityTerms = affinityTerms;
    this.antiAffinityTerms = antiAffinityTerms;
    this.mayStartFirstDomain = mayStartFirstDomain;
  }

  /** Scans every pod in {@code placed}, which must not contain the incoming pod. */
  public static ScanningPodAffinity scan(
      String namespace,
      Map<String, String> labels,
      Affinity affinity,
      Iterable<PlacedPod> placed,
      Function<String, Map<String, String>> nodeLabels,
      Comparisons comparisons) {
    requireNonNull(comparisons, "comparisons is null");
    List<PodAffinityTerm> affinityTerms = affinity.requiredPodAffinity();
    List<PodAffinityTerm> antiAffinityTerms = affinity.requiredPodAntiAffinity();
    ImmutableSet.Builder<Domain> affinityDomains = ImmutableSet.builder();
    ImmutableSet.Builder<Domain> antiAffinityDomains = ImmutableSet.builder();
    ImmutableSet.Builder<Domain> existingAntiAffinityDomains = ImmutableSet.builder();
    for (PlacedPod pod : placed) {
      Map<String, String> podNode = nodeLabels.apply(pod.nodeName());
      for (PodAffinityTerm term : pod.requiredAntiAffinity()) {
        comparisons.count++;
        if (term.selects(pod.namespace(), namespace, labels)) {
          addDomain(existingAntiAffinityDomains, term, podNode);
        }
      }
      if (matchesAll(affinityTerms, namespace, pod.namespace(), pod.labels(), comparisons)) {
        for (PodAffinityTerm term : affinityTerms) {
          addDomain(affinityDomains, term, podNode);
        }
      }
      for (PodAffinityTerm term : antiAffinityTerms) {
        comparisons.count++;
        if (term.selects(namespace, pod.namespace(), pod.labels())) {
          addDomain(antiAffinityDomains, term, podNode);
        }
      }
    }
    ImmutableSet<Domain> affinityDomainSet = affinityDomains.build();
    boolean mayStartFirstDomain =
        affinityDomainSet.isEmpty()
            && matchesAll(affinityTerms, namespace, namespace, labels, comparisons);
    return new ScanningPodAffinity(
        affinityDomainSet,
        antiAffinityDomains.build(),
        existingAntiAffinityDomains.build(),
        affinityTerms,
        antiAffinityTerms,
        mayStartFirstDomain);
  }

  public boolean passesEveryNode() {
    return affinityTerms.isEmpty()
        && antiAffinityTerms.isEmpty()
        && existingAntiAffinityDomains.isEmpty();
  }

  public Optional<PodAffinityMismatch> check(Map<String, String> nodeLabels) {
    boolean everyDomainHasMatch = true;
    for (PodAffinityTerm term : affinityTerms) {
      String value = nodeLabels.get(term.topologyKey());
      if (value == null) {
        return Optional.of(new PodAffinityUnsatisfied());
      }
      if (!affinityDomains.contains(new Domain(term.topologyKey(), value))) {
        everyDomainHasMatch = false;
      }
    }
    if (!everyDomainHasMatch && !mayStartFirstDomain) {
      return Optional.of(new PodAffinityUnsatisfied());
    }
    for (PodAffinityTerm term : antiAffinityTerms) {
      String value = nodeLabels.get(term.topologyKey());
      if (value != null && antiAffinityDomains.contains(new Domain(term.topologyKey(), value))) {
        return Optional.of(new PodAntiAffinityConflict());
      }
    }
    for (Map.Entry<String, String> label : nodeLabels.entrySet()) {
      if (existingAntiAffinityDomains.contains(new Domain(label.getKey(), label.getValue()))) {
        return Optional.of(new ExistingPodAntiAffinityConflict());
      }
    }
    return Optional.empty();
  }

  // As kube's podMatchesAllAffinityTerms: an empty term list matches no pod.
  private static boolean matchesAll(
      List<PodAffinityTerm> terms,
      String declaringNamespace,
      String podNamespace,
      Map<String, String> podLabels,
      Comparisons comparisons) {
    if (terms.isEmpty()) {
      return false;
    }
    for (PodAffinityTerm term : terms) {
      comparisons.count++;
      if (!term.selects(declaringNamespace, podNamespace, podLabels)) {
        return false;
      }
    }
    return true;
  }

  private static void addDomain(
      ImmutableSet.Builder<Domain> domains, PodAffinityTerm term, Map<String, String> nodeLabels) {
    String value = nodeLabels.get(term.topologyKey());
    if (value != null) {
      domains.add(new Domain(term.topologyKey(), value));
    }
  }
}
