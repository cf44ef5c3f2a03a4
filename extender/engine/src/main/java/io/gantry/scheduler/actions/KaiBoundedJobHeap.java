package io.gantry.scheduler.actions;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Which jobs KAI keeps in a leaf queue's bounded job heap (kai-reference §4.5, {@code
 * queueDepthPerAction}). KAI's heap is Go's {@code container/heap} over a slice: a push appends and
 * sifts the new job up while it orders strictly before its parent, and once the heap holds {@code
 * capacity + 1} jobs the one at index {@code capacity} — the slice's last — is removed. That job is
 * not necessarily the last in order, so a bounded queue can drop a better job than the worst; the
 * survivors are reproduced here push by push. Pop order among the survivors is the job order, so
 * only who survives matters.
 */
final class KaiBoundedJobHeap {
  private KaiBoundedJobHeap() {}

  /**
   * The jobs left after pushing {@code pushed} in order into a heap of {@code capacity} ordered by
   * {@code order} (negative: the first job is popped first).
   */
  static <T> List<T> survivors(List<T> pushed, Comparator<? super T> order, int capacity) {
    List<T> heap = new ArrayList<>(Math.min(pushed.size(), capacity + 1));
    for (T job : pushed) {
      heap.add(job);
      siftUp(heap, heap.size() - 1, order);
      if (heap.size() > capacity) {
        heap.remove(capacity);
      }
    }
    return heap;
  }

  /** Go's {@code heap.up}: swap with the parent while strictly before it. */
  private static <T> void siftUp(List<T> heap, int index, Comparator<? super T> order) {
    int j = index;
    while (j > 0) {
      int parent = (j - 1) / 2;
      if (order.compare(heap.get(j), heap.get(parent)) >= 0) {
        return;
      }
      Collections.swap(heap, parent, j);
      j = parent;
    }
  }
}
