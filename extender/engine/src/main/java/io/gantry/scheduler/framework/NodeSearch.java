package io.gantry.scheduler.framework;

import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;

/**
 * How a cycle searches for what it decides, chosen by the wiring and held by the session. Every
 * implementation makes exactly the same decisions (bindings, pipelines, evictions, events and fit
 * messages); they differ only in the work done. {@link IndexedNodeSearch} is what every front door
 * runs; {@link ExhaustiveNodeSearch} is KAI's straightforward search, the yardstick benchmarks and
 * equivalence tests hold the indexed one to. Implementations are stateless and may serve several
 * sessions at once; what one session remembers lives in its {@link NodeFinder}s and in the memos
 * callers pass to {@link #reuse}.
 */
public interface NodeSearch {
  /** A finder over every node of {@code session} for one allocator, checking nodes with checks. */
  NodeFinder finder(Session session, NodeChecks checks);

  /**
   * Whether reclaim may pass over a reclaimer without searching for victims because {@code
   * outOfReach} proves no scenario it may build frees what the reclaimer needs (a search would find
   * nothing). The exhaustive search never asks and searches every reclaimer.
   */
  boolean skipsReclaimer(BooleanSupplier outOfReach);

  /**
   * A value derived from the session, for {@code key} and {@code argument}: the one {@code memo}
   * holds while {@code current} says it still is, else a fresh {@code compute}d one that replaces
   * it. The exhaustive search computes every time and leaves the memo alone. So {@code compute}
   * must depend only on what {@code current} checks. Asked on every comparison of a heap, so
   * callers pass functions that capture nothing and a hit allocates nothing.
   */
  <K, A, V> V reuse(
      Map<K, V> memo,
      K key,
      A argument,
      BiPredicate<? super V, ? super A> current,
      BiFunction<? super K, ? super A, ? extends V> compute);
}
