package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The placed pods of a cycle, indexed for required inter-pod affinity so that checking a pod costs
 * what the pods its terms match cost, not a scan of every pod (kube-scheduler's InterPodAffinity
 * pre-filter state, kept current as pods come and go instead of rebuilt per pod):
 *
 * <ul>
 *   <li>pods by label, label key and namespace, to find the candidates of a scope once;
 *   <li>per distinct selection (an anti-affinity term's scope, or all of a pod's affinity terms),
 *       the pods it selects, counted per topology domain of each topology key asked about;
 *   <li>per distinct anti-affinity term of placed pods (scope and topology key), how many placed
 *       pods hold it per domain, with the terms filed by a {@link PodScope.Guard} so an incoming
 *       pod compares itself only with the terms that could select it.
 * </ul>
 *
 * Adding or removing a pod compares it with the selections whose guard it meets; a selection is
 * filled from its guard's candidates the first time a pod asks for it. {@link #prepare} then reads
 * per-domain counts, so {@link PreparedPodAffinity#check} costs O(1) per term and node. Outcomes do
 * not depend on iteration order: they are counts. Not thread-safe.
 */
public final class PodAffinityIndex {
  private final ComparisonCounter comparisons;
  private final Map<String, IndexedPod> pods = new LinkedHashMap<>();
  private final Map<ScopeIndex.LabelKey, Map<String, IndexedPod>> podsByLabel = new HashMap<>();
  private final Map<String, Map<String, IndexedPod>> podsByKey = new HashMap<>();
  private final Map<String, Map<String, IndexedPod>> podsByNamespace = new HashMap<>();
  private final Map<List<PodScope>, TrackedSelection> selections = new HashMap<>();
  private final ScopeIndex<TrackedSelection> selectionsByGuard = new ScopeIndex<>();
  private final Map<HeldTerm, DomainCounts> heldTerms = new HashMap<>();
  private final ScopeIndex<HeldTerm> heldTermsByGuard = new ScopeIndex<>();
  private long changes;

  /** An anti-affinity term of placed pods, resolved against the namespace of the pod holding it. */
  private record HeldTerm(PodScope scope, String topologyKey) {
    static HeldTerm of(PodAffinityTerm term, String holderNamespace) {
      return new HeldTerm(PodScope.of(term, holderNamespace), term.topologyKey());
    }
  }

  public PodAffinityIndex(ComparisonCounter comparisons) {
    this.comparisons = requireNonNull(comparisons, "comparisons is null");
  }

  /** An index of every pod of {@code view}, read once. */
  public static PodAffinityIndex of(PlacedPodsView view, ComparisonCounter comparisons) {
    requireNonNull(view, "view is null");
    PodAffinityIndex index = new PodAffinityIndex(comparisons);
    int n = 0;
    for (PlacedPod pod : view.placedPods()) {
      index.add(Integer.toString(n++), pod, view.nodeLabels(pod.nodeName()));
    }
    return index;
  }

  /**
   * Adds a pod bound or assumed to the node with {@code nodeLabels} (empty when the node is
   * unknown: the pod is then in no topology domain).
   *
   * @param key unique among the indexed pods
   */
  public void add(String key, PlacedPod pod, Map<String, String> nodeLabels) {
    requireNonNull(key, "key is null");
    requireNonNull(pod, "pod is null");
    requireNonNull(nodeLabels, "nodeLabels is null");
    if (pods.containsKey(key)) {
      throw new IllegalArgumentException("pod " + key + " is already indexed");
    }
    IndexedPod indexed = new IndexedPod(key, pod, ImmutableSortedMap.copyOf(nodeLabels));
    pods.put(key, indexed);
    posting(podsByNamespace, pod.namespace()).put(key, indexed);
    for (Map.Entry<String, String> label : pod.labels().entrySet()) {
      posting(podsByKey, label.getKey()).put(key, indexed);
      posting(podsByLabel, new ScopeIndex.LabelKey(label.getKey(), label.getValue()))
          .put(key, indexed);
    }
    for (TrackedSelection selection : selectionsByGuard.candidates(pod.namespace(), pod.labels())) {
      if (selection.selects(pod.namespace(), pod.labels(), comparisons)) {
        selection.add(indexed);
      }
    }
    for (PodAffinityTerm term : pod.requiredAntiAffinity()) {
      heldCounts(HeldTerm.of(term, pod.namespace())).add(indexed.nodeLabels(), 1);
    }
    changes++;
  }

  /** Removes the pod with this key; false when none is indexed. */
  public boolean remove(String key) {
    IndexedPod indexed = pods.remove(requireNonNull(key, "key is null"));
    if (indexed == null) {
      return false;
    }
    PlacedPod pod = indexed.pod();
    unpost(podsByNamespace, pod.namespace(), key);
    for (Map.Entry<String, String> label : pod.labels().entrySet()) {
      unpost(podsByKey, label.getKey(), key);
      unpost(podsByLabel, new ScopeIndex.LabelKey(label.getKey(), label.getValue()), key);
    }
    for (TrackedSelection selection : selectionsByGuard.candidates(pod.namespace(), pod.labels())) {
      selection.remove(indexed);
    }
    for (PodAffinityTerm term : pod.requiredAntiAffinity()) {
      heldTerms.get(HeldTerm.of(term, pod.namespace())).add(indexed.nodeLabels(), -1);
    }
    changes++;
    return true;
  }

  /** The node of the indexed pod with this key. */
  public Optional<String> nodeOf(String key) {
    return Optional.ofNullable(pods.get(key)).map(p -> p.pod().nodeName());
  }

  public int size() {
    return pods.size();
  }

  /** The check for a pod that is not in the index. */
  public PreparedPodAffinity prepare(
      String namespace, Map<String, String> labels, Affinity affinity) {
    return prepare(Optional.empty(), namespace, labels, affinity);
  }

  /**
   * The check for the pod with {@code key}; when that pod is indexed (already placed), it is left
   * out, since kube-scheduler never sees the pod being scheduled among the placed ones. The result
   * is valid until the next {@link #add} or {@link #remove}.
   */
  public PreparedPodAffinity prepare(
      String key, String namespace, Map<String, String> labels, Affinity affinity) {
    return prepare(
        Optional.ofNullable(pods.get(requireNonNull(key, "key is null"))),
        namespace,
        labels,
        affinity);
  }

  long changes() {
    return changes;
  }

  private PreparedPodAffinity prepare(
      Optional<IndexedPod> self, String namespace, Map<String, String> labels, Affinity affinity) {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(affinity, "affinity is null");
    List<PodAffinityTerm> affinityTerms = affinity.requiredPodAffinity();
    Map<String, DomainLookup> affinityLookups = new LinkedHashMap<>();
    boolean mayStartFirstDomain = false;
    if (!affinityTerms.isEmpty()) {
      List<PodScope> scopes = new ArrayList<>();
      for (PodAffinityTerm term : affinityTerms) {
        scopes.add(PodScope.of(term, namespace));
      }
      TrackedSelection selection = selection(scopes);
      for (PodAffinityTerm term : affinityTerms) {
        affinityLookups.computeIfAbsent(
            term.topologyKey(), key -> lookup(selection.counts(key), selection, self));
      }
      // kube-scheduler lets a self-matching pod go first only when no placed pod matches its terms
      // in any domain; otherwise a later pod of the group could start a second, disjoint domain.
      mayStartFirstDomain =
          affinityLookups.values().stream().allMatch(DomainLookup::isEmpty)
              && selection.selects(namespace, labels, comparisons);
    }
    ImmutableList.Builder<DomainLookup> antiAffinity = ImmutableList.builder();
    for (PodAffinityTerm term : affinity.requiredPodAntiAffinity()) {
      TrackedSelection selection = selection(List.of(PodScope.of(term, namespace)));
      antiAffinity.add(lookup(selection.counts(term.topologyKey()), selection, self));
    }
    ImmutableList.Builder<DomainLookup> existing = ImmutableList.builder();
    for (HeldTerm held : heldTermsByGuard.candidates(namespace, labels)) {
      DomainCounts counts = heldTerms.get(held);
      if (counts.total() == 0 || !held.scope().selects(namespace, labels, comparisons)) {
        continue;
      }
      DomainLookup lookup =
          self.isEmpty()
              ? DomainLookup.of(counts)
              : DomainLookup.excluding(
                  counts, timesHeld(self.get(), held), self.get().nodeLabels());
      if (!lookup.isEmpty()) {
        existing.add(lookup);
      }
    }
    return new PreparedPodAffinity(
        this,
        !affinityTerms.isEmpty(),
        ImmutableList.copyOf(affinityLookups.values()),
        mayStartFirstDomain,
        antiAffinity.build(),
        existing.build());
  }

  private static DomainLookup lookup(
      DomainCounts counts, TrackedSelection selection, Optional<IndexedPod> self) {
    if (self.isEmpty() || !selection.contains(self.get().key())) {
      return DomainLookup.of(counts);
    }
    return DomainLookup.excluding(counts, 1, self.get().nodeLabels());
  }

  private static int timesHeld(IndexedPod pod, HeldTerm held) {
    int n = 0;
    for (PodAffinityTerm term : pod.pod().requiredAntiAffinity()) {
      if (HeldTerm.of(term, pod.namespace()).equals(held)) {
        n++;
      }
    }
    return n;
  }

  /** The tracked selection of these scopes, filled from the indexed pods when first asked for. */
  private TrackedSelection selection(List<PodScope> scopes) {
    List<PodScope> key = ImmutableList.copyOf(scopes);
    TrackedSelection selection = selections.get(key);
    if (selection != null) {
      return selection;
    }
    selection = new TrackedSelection(key);
    for (IndexedPod pod : candidates(key)) {
      if (selection.selects(pod.namespace(), pod.pod().labels(), comparisons)) {
        selection.add(pod);
      }
    }
    selections.put(key, selection);
    selectionsByGuard.add(filingGuard(key), selection);
    return selection;
  }

  /** A guard on labels when any scope has one (few pods meet it), else the namespaces. */
  private static PodScope.Guard filingGuard(List<PodScope> scopes) {
    for (PodScope scope : scopes) {
      PodScope.Guard guard = scope.guard();
      if (guard.kind() != PodScope.Guard.Kind.NAMESPACE) {
        return guard;
      }
    }
    return scopes.get(0).guard();
  }

  /** The indexed pods meeting the guard, among the scopes' guards, that the fewest pods meet. */
  private List<IndexedPod> candidates(List<PodScope> scopes) {
    List<Collection<IndexedPod>> best = null;
    int bestSize = Integer.MAX_VALUE;
    for (PodScope scope : scopes) {
      for (PodScope.Guard guard :
          List.of(
              scope.guard(),
              new PodScope.Guard(PodScope.Guard.Kind.NAMESPACE, "", scope.namespaces()))) {
        List<Collection<IndexedPod>> postings = postings(guard);
        int size = postings.stream().mapToInt(Collection::size).sum();
        if (size < bestSize) {
          best = postings;
          bestSize = size;
        }
      }
    }
    List<IndexedPod> out = new ArrayList<>(bestSize);
    best.forEach(out::addAll);
    return out;
  }

  private List<Collection<IndexedPod>> postings(PodScope.Guard guard) {
    List<Collection<IndexedPod>> out = new ArrayList<>();
    switch (guard.kind()) {
      case LABEL -> {
        for (String value : guard.values()) {
          out.add(
              podsByLabel
                  .getOrDefault(new ScopeIndex.LabelKey(guard.key(), value), Map.of())
                  .values());
        }
      }
      case KEY -> out.add(podsByKey.getOrDefault(guard.key(), Map.of()).values());
      case NAMESPACE -> {
        for (String namespace : guard.values()) {
          out.add(podsByNamespace.getOrDefault(namespace, Map.of()).values());
        }
      }
    }
    return out;
  }

  private DomainCounts heldCounts(HeldTerm held) {
    DomainCounts counts = heldTerms.get(held);
    if (counts == null) {
      counts = new DomainCounts(held.topologyKey());
      heldTerms.put(held, counts);
      heldTermsByGuard.add(held.scope().guard(), held);
    }
    return counts;
  }

  private static <K> Map<String, IndexedPod> posting(
      Map<K, Map<String, IndexedPod>> postings, K key) {
    return postings.computeIfAbsent(key, k -> new LinkedHashMap<>());
  }

  private static <K> void unpost(Map<K, Map<String, IndexedPod>> postings, K key, String podKey) {
    Map<String, IndexedPod> posting = postings.get(key);
    posting.remove(podKey);
    if (posting.isEmpty()) {
      postings.remove(key);
    }
  }
}
