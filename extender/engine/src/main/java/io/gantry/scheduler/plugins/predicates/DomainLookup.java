package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * The pods of one {@link DomainCounts} as the incoming pod sees them: without the incoming pod
 * itself, which kube-scheduler's snapshot never lists while the pod is being scheduled.
 *
 * @param selfCount how often the incoming pod is counted in {@code counts}, 0 when it is not
 * @param selfValue the incoming pod's domain in {@code counts}; meaningless when {@code selfCount}
 *     is 0
 */
record DomainLookup(DomainCounts counts, int selfCount, String selfValue) {
  DomainLookup {
    requireNonNull(counts, "counts is null");
    requireNonNull(selfValue, "selfValue is null");
  }

  /** Counts that do not include the incoming pod. */
  static DomainLookup of(DomainCounts counts) {
    return new DomainLookup(counts, 0, "");
  }

  /**
   * Counts that include the incoming pod {@code selfCount} times when it is placed on a node with
   * {@code selfNodeLabels}; a pod on a node without the topology key is in no count.
   */
  static DomainLookup excluding(
      DomainCounts counts, int selfCount, Map<String, String> selfNodeLabels) {
    String value = selfNodeLabels.get(counts.topologyKey());
    return value == null || selfCount == 0
        ? of(counts)
        : new DomainLookup(counts, selfCount, value);
  }

  String topologyKey() {
    return counts.topologyKey();
  }

  /** Whether a pod is in the node's domain; a node without the topology key is in none. */
  boolean occupies(Map<String, String> nodeLabels) {
    String value = nodeLabels.get(counts.topologyKey());
    return value != null && count(value) > 0;
  }

  /** Whether any pod is in any domain. */
  boolean isEmpty() {
    return counts.total() - selfCount == 0;
  }

  private int count(String value) {
    int n = counts.count(value);
    return selfCount > 0 && value.equals(selfValue) ? n - selfCount : n;
  }
}
