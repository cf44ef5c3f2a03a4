package io.gantry.scheduler.framework;

import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * GPU nodes by the whole devices they have free now or once releasing tasks are gone, then by name:
 * the order bin-packing scores them in. Kept in step with every placement, so finding the fullest
 * node that fits does not scan the cluster per task.
 */
public final class NodeIndex {
  private static final Comparator<NodeState> BY_NAME = Comparator.comparing(NodeState::name);

  private final TreeMap<Integer, TreeSet<NodeState>> byFreeGpus = new TreeMap<>();
  private final IdentityHashMap<NodeState, Integer> indexedAt = new IdentityHashMap<>();

  void add(NodeState node) {
    if (node.info().gpuCount() <= 0) {
      return;
    }
    int free = freeGpus(node);
    byFreeGpus.computeIfAbsent(free, k -> new TreeSet<>(BY_NAME)).add(node);
    indexedAt.put(node, free);
  }

  void update(NodeState node) {
    Integer old = indexedAt.get(node);
    if (old == null) {
      return;
    }
    int free = freeGpus(node);
    if (old == free) {
      return;
    }
    TreeSet<NodeState> bucket = byFreeGpus.get(old);
    bucket.remove(node);
    if (bucket.isEmpty()) {
      byFreeGpus.remove(old);
    }
    byFreeGpus.computeIfAbsent(free, k -> new TreeSet<>(BY_NAME)).add(node);
    indexedAt.put(node, free);
  }

  /**
   * GPU nodes with at least {@code gpus} whole devices free or releasing: fullest first, then by
   * name.
   */
  public Iterable<NodeState> withFreeGpusAtLeast(int gpus) {
    NavigableMap<Integer, TreeSet<NodeState>> tail = byFreeGpus.tailMap(gpus, true);
    return () -> new BucketWalk(tail.values().iterator());
  }

  /**
   * The nodes of successive buckets, read in place: each step costs what the tree iterators cost,
   * so stopping after the first fitting node leaves the rest of the index untouched.
   */
  private static final class BucketWalk implements Iterator<NodeState> {
    private final Iterator<TreeSet<NodeState>> buckets;
    private Iterator<NodeState> current = Collections.emptyIterator();

    BucketWalk(Iterator<TreeSet<NodeState>> buckets) {
      this.buckets = buckets;
    }

    @Override
    public boolean hasNext() {
      while (!current.hasNext() && buckets.hasNext()) {
        current = buckets.next().iterator();
      }
      return current.hasNext();
    }

    @Override
    public NodeState next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return current.next();
    }
  }

  static int freeGpus(NodeState node) {
    return node.idleWholeGpus() + node.releasingWholeGpus();
  }
}
