package io.gantry.scheduler.plugins.predicates;

/**
 * Counts how often inter-pod affinity compares a pod with a term's namespaces and label selector,
 * the unit of its work. One counter per plugin instance or index; not thread-safe, like the session
 * it serves.
 */
public final class ComparisonCounter {
  private long count;

  /** Comparisons made so far. */
  public long count() {
    return count;
  }

  void increment() {
    count++;
  }
}
