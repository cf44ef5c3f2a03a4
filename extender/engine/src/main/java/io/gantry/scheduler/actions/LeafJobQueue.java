package io.gantry.scheduler.actions;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A leaf queue's jobs in job order, popping exactly what a {@link PriorityQueue} of them would.
 * When no two of the first jobs tie, they are sorted once and read in turn, and only jobs added
 * later (a job pushed back after a pass) go to a heap: each pop takes the better of the two heads,
 * so a cycle of 50,000 jobs pays one sort instead of a heap's twenty comparisons a pop, each
 * reading two jobs from far apart in memory. With a tie, where a heap's pop order among equals
 * depends on its layout, every job goes to the heap, pushed in the given order as before.
 *
 * <p>Like a heap, it needs the order of the jobs it holds not to change while they wait; the
 * actions change only the job they popped.
 */
final class LeafJobQueue<T> {
  private final Comparator<T> order;
  private final PriorityQueue<T> added;
  private Object[] sorted = new Object[0];
  private int next;

  LeafJobQueue(Comparator<T> order) {
    this.order = order;
    this.added = new PriorityQueue<>(order);
  }

  /**
   * The first jobs, in the order a heap would have been pushed them; call once, on an empty queue.
   */
  void addFirst(List<T> jobs) {
    if (!isEmpty()) {
      throw new IllegalStateException("the first jobs go into an empty queue");
    }
    List<T> inOrder = new ArrayList<>(jobs);
    inOrder.sort(order);
    for (int i = 1; i < inOrder.size(); i++) {
      if (order.compare(inOrder.get(i - 1), inOrder.get(i)) == 0) {
        added.addAll(jobs);
        return;
      }
    }
    sorted = inOrder.toArray();
    next = 0;
  }

  void add(T job) {
    added.add(job);
  }

  boolean isEmpty() {
    return next == sorted.length && added.isEmpty();
  }

  /** The best job, or null when none is left. */
  T peek() {
    return fromSorted() ? sortedAt(next) : added.peek();
  }

  /** Removes and returns the best job, or null when none is left. */
  T poll() {
    if (fromSorted()) {
      T job = sortedAt(next);
      sorted[next++] = null;
      return job;
    }
    return added.poll();
  }

  Comparator<T> comparator() {
    return order;
  }

  /** Whether the best job is the sorted run's next. */
  private boolean fromSorted() {
    if (next == sorted.length) {
      return false;
    }
    T heapHead = added.peek();
    return heapHead == null || order.compare(sortedAt(next), heapHead) <= 0;
  }

  @SuppressWarnings("unchecked") // holds only what addFirst was given
  private T sortedAt(int i) {
    return (T) sorted[i];
  }
}
