package io.gantry.scheduler.framework;

import static com.google.common.base.Preconditions.checkArgument;

import io.gantry.gpusharing.GpuAmount;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Nodes ordered the ways the summed node score orders them for each task shape, kept in step with
 * every placement, so finding the best node that fits does not score the cluster per task:
 *
 * <ul>
 *   <li>GPU nodes by whole devices free now or once releasing tasks are gone, then by name
 *       (bin-packing whole-GPU and shared-GPU tasks);
 *   <li>GPU nodes with a shared GPU that can take a portion, by that room, each room's nodes by
 *       free whole devices and name (shared-GPU tasks, which prefer a device already shared);
 *   <li>GPU nodes with at least two free GPUs inside one interconnect domain, by the most free in
 *       one domain, each count's nodes by free whole devices and name (multi-GPU tasks, which
 *       prefer a node whose free GPUs of one domain hold them);
 *   <li>CPU-only nodes and GPU nodes, each by CPU free now or once releasing, then by name
 *       (bin-packing CPU-only tasks).
 * </ul>
 *
 * It also groups every node by {@link NodeClass}, so a task no node takes is explained by checking
 * one node per class, and by the key of any {@link NodeGrouping} a {@link GroupedScorer} scores by,
 * so such a scorer costs one node per group. Iteration reads the trees in place: stopping after the
 * first fitting node leaves the rest of the index untouched.
 */
public final class NodeIndex {
  /** A node with the keys it is indexed under; the keys change only while it is out of the sets. */
  private static final class Entry {
    final NodeState node;

    /**
     * The node's place among the index's nodes sorted by name: the trees' tie-break, an int
     * comparison where names would be compared at every level of every re-sort.
     */
    final int nameRank;

    final boolean gpuNode;
    int freeGpus;
    boolean irregular;
    int sharedRoom;
    int domainRoom;
    long freeCpu;

    Entry(NodeState node, int nameRank) {
      this.node = node;
      this.nameRank = nameRank;
      this.gpuNode = node.info().gpuCount() > 0;
    }

    /** A probe that sorts before every entry with these keys. */
    Entry(int freeGpus, long freeCpu) {
      this.node = null;
      this.nameRank = -1;
      this.gpuNode = true;
      this.freeGpus = freeGpus;
      this.freeCpu = freeCpu;
    }
  }

  /**
   * The fewest free GPUs in one domain a node is indexed by: one free GPU is always in one domain,
   * so only tasks of two or more GPUs look for a domain (the nodes of most clusters stay out).
   */
  private static final int MIN_DOMAIN_ROOM = 2;

  // written out rather than composed: every placement re-sorts its node in several trees
  private static final Comparator<Entry> BY_FREE_GPUS =
      (a, b) -> {
        int c = Integer.compare(a.freeGpus, b.freeGpus);
        return c != 0 ? c : Integer.compare(a.nameRank, b.nameRank);
      };
  private static final Comparator<Entry> BY_FREE_CPU =
      (a, b) -> {
        int c = Long.compare(a.freeCpu, b.freeCpu);
        return c != 0 ? c : Integer.compare(a.nameRank, b.nameRank);
      };

  private final IdentityHashMap<NodeState, Entry> entries = new IdentityHashMap<>();
  private final TreeSet<Entry> gpuNodesByFreeGpus = new TreeSet<>(BY_FREE_GPUS);
  private final TreeSet<Entry> irregularGpuNodes = new TreeSet<>(BY_FREE_GPUS);
  private final NavigableMap<Integer, Set<Entry>> gpuNodesBySharedRoom = new TreeMap<>();
  private final NavigableMap<Integer, Set<Entry>> gpuNodesByDomainRoom = new TreeMap<>();
  private final TreeSet<Entry> cpuOnlyNodesByFreeCpu = new TreeSet<>(BY_FREE_CPU);
  private final TreeSet<Entry> gpuNodesByFreeCpu = new TreeSet<>(BY_FREE_CPU);

  /** {@link #withFreeGpusAtLeast}'s views by GPU count; looked up, never iterated. */
  private final Map<Integer, FreeGpusAtLeast> freeGpusViews = new HashMap<>();

  /*
   * Every node by its class, and by each grouping a scorer asked for, re-keyed lazily: cycles
   * without failures never compute a class. Groupings are looked up by identity, never iterated
   * for a decision.
   */
  private final NodeGroups<NodeClass> classes = new NodeGroups<>(NodeClass::of);

  private final IdentityHashMap<NodeGrouping<?>, NodeGroups<?>> groupings = new IdentityHashMap<>();

  /** The nodes of one class: the first in the session's order, and how many there are. */
  public record ClassMembers(NodeState first, int size) {}

  /** Indexes the session's nodes, once; their names are distinct. */
  void addAll(List<NodeState> nodes) {
    checkArgument(entries.isEmpty(), "the index already holds %s nodes", entries.size());
    List<NodeState> byName = new ArrayList<>(nodes);
    byName.sort(Comparator.comparing(NodeState::name));
    for (int rank = 0; rank < byName.size(); rank++) {
      NodeState node = byName.get(rank);
      checkArgument(
          rank == 0 || !byName.get(rank - 1).name().equals(node.name()),
          "two nodes named %s",
          node.name());
      Entry e = new Entry(node, rank);
      read(e);
      entries.put(node, e);
    }
    // inserted and marked in the session's order, as the nodes came before
    for (NodeState node : nodes) {
      Entry e = entries.get(node);
      insert(e);
      markStale(e);
    }
  }

  void update(NodeState node) {
    Entry e = entries.get(node);
    if (e == null) {
      return;
    }
    markStale(e);
    if (e.freeGpus == freeGpus(node)
        && e.irregular == irregular(node)
        && e.sharedRoom == node.sharedRoomHundredths()
        && e.domainRoom == node.freeGpusInOneDomain()
        && e.freeCpu == freeCpu(node)) {
      return;
    }
    remove(e);
    read(e);
    insert(e);
  }

  /**
   * GPU nodes that may have {@code gpus} whole devices for a task, free now or once releasing tasks
   * are gone: those with at least that many (idle plus releasing whole devices, the bin-packing
   * key), and the irregular ones, whose idle or releasing GPUs are negative (over-committed) or not
   * whole, so that key undercounts what a fit check or a shared task's devices count; fullest
   * first, then by name.
   */
  public Iterable<NodeState> withFreeGpusAtLeast(int gpus) {
    // asked for every GPU task: the views of one count stay valid as nodes move (they are ranges
    // of the live sets), so each count's are made once a session
    FreeGpusAtLeast views = freeGpusViews.get(gpus);
    if (views == null) {
      Entry probe = new Entry(gpus, 0);
      views =
          new FreeGpusAtLeast(
              gpuNodesByFreeGpus.tailSet(probe, true), irregularGpuNodes.headSet(probe, false));
      freeGpusViews.put(gpus, views);
    }
    return views;
  }

  /** The GPU nodes of {@link #withFreeGpusAtLeast} for one count, as live views of the sets. */
  private record FreeGpusAtLeast(Collection<Entry> enough, Collection<Entry> irregular)
      implements Iterable<NodeState> {
    @Override
    public Iterator<NodeState> iterator() {
      return irregular.isEmpty()
          ? nodes(enough.iterator())
          : nodes(new Merge(List.of(enough.iterator(), irregular.iterator())));
    }
  }

  /**
   * GPU nodes with a shared GPU (not wholly releasing) that can take {@code hundredths} of a device
   * now or once releasing fractions are gone: fewest free whole devices first, then by name.
   */
  public Iterable<NodeState> withSharedRoomAtLeast(int hundredths) {
    return atLeast(gpuNodesBySharedRoom, hundredths);
  }

  /**
   * GPU nodes with at least {@code gpus} (two or more) GPUs free now inside one interconnect domain
   * ({@link NodeState#freeGpusInOneDomain()}): fewest free whole devices first, then by name.
   */
  public Iterable<NodeState> withFreeGpusInOneDomainAtLeast(int gpus) {
    checkArgument(
        gpus >= MIN_DOMAIN_ROOM, "only nodes with %s or more are indexed", MIN_DOMAIN_ROOM);
    return atLeast(gpuNodesByDomainRoom, gpus);
  }

  /** The nodes of every set keyed at least {@code key}, merged in {@link #BY_FREE_GPUS} order. */
  private static Iterable<NodeState> atLeast(NavigableMap<Integer, Set<Entry>> byKey, int key) {
    Collection<Set<Entry>> rooms = byKey.tailMap(key, true).values();
    return () -> {
      List<Iterator<Entry>> parts = new ArrayList<>(rooms.size());
      for (Set<Entry> room : rooms) {
        parts.add(room.iterator());
      }
      return nodes(new Merge(parts));
    };
  }

  /**
   * CPU-only nodes ({@code cpuOnlyNodes}) or GPU nodes with at least {@code millis} of CPU free or
   * releasing: least free first, then by name.
   */
  public Iterable<NodeState> withFreeCpuAtLeast(long millis, boolean cpuOnlyNodes) {
    TreeSet<Entry> set = cpuOnlyNodes ? cpuOnlyNodesByFreeCpu : gpuNodesByFreeCpu;
    Collection<Entry> tail = set.tailSet(new Entry(0, millis), true);
    return () -> nodes(tail.iterator());
  }

  /** Every node, grouped by {@link NodeClass}, classes in the order of their first node. */
  public List<ClassMembers> nodeClasses() {
    List<NodeGroups.Group> groups = classes.groups();
    List<ClassMembers> out = new ArrayList<>(groups.size());
    for (NodeGroups.Group g : groups) {
      out.add(new ClassMembers(g.first(), g.members().size()));
    }
    return out;
  }

  /**
   * Every node, grouped by {@code grouping}'s key, groups in the order of their first node; kept
   * from the first call on, so a node is keyed again only when it changes.
   */
  List<NodeGroups.Group> groups(NodeGrouping<?> grouping) {
    NodeGroups<?> groups = groupings.get(grouping);
    if (groups == null) {
      groups = new NodeGroups<>(grouping::keyOf);
      for (Entry e : entries.values()) {
        groups.markStale(e.node);
      }
      groupings.put(grouping, groups);
    }
    return groups.groups();
  }

  private void markStale(Entry e) {
    classes.markStale(e.node);
    for (NodeGroups<?> groups : groupings.values()) {
      groups.markStale(e.node);
    }
  }

  static int freeGpus(NodeState node) {
    return node.idleWholeGpus() + node.releasingWholeGpus();
  }

  static boolean irregular(NodeState node) {
    GpuAmount idle = node.idle().gpus();
    GpuAmount releasing = node.releasing().gpus();
    return node.idleWholeGpus() < 0
        || node.releasingWholeGpus() < 0
        || !idle.isWholeDevices()
        || !releasing.isWholeDevices();
  }

  static long freeCpu(NodeState node) {
    return node.idleOrReleasing().cpuMillis();
  }

  private static void read(Entry e) {
    e.freeGpus = freeGpus(e.node);
    e.irregular = irregular(e.node);
    e.sharedRoom = e.node.sharedRoomHundredths();
    e.domainRoom = e.node.freeGpusInOneDomain();
    e.freeCpu = freeCpu(e.node);
  }

  private void insert(Entry e) {
    if (e.gpuNode) {
      gpuNodesByFreeGpus.add(e);
      gpuNodesByFreeCpu.add(e);
      if (e.irregular) {
        irregularGpuNodes.add(e);
      }
      if (e.sharedRoom >= 0) {
        addKeyed(gpuNodesBySharedRoom, e.sharedRoom, e);
      }
      if (e.domainRoom >= MIN_DOMAIN_ROOM) {
        addKeyed(gpuNodesByDomainRoom, e.domainRoom, e);
      }
    } else {
      cpuOnlyNodesByFreeCpu.add(e);
    }
  }

  private void remove(Entry e) {
    if (e.gpuNode) {
      gpuNodesByFreeGpus.remove(e);
      gpuNodesByFreeCpu.remove(e);
      irregularGpuNodes.remove(e);
      if (e.sharedRoom >= 0) {
        removeKeyed(gpuNodesBySharedRoom, e.sharedRoom, e);
      }
      if (e.domainRoom >= MIN_DOMAIN_ROOM) {
        removeKeyed(gpuNodesByDomainRoom, e.domainRoom, e);
      }
    } else {
      cpuOnlyNodesByFreeCpu.remove(e);
    }
  }

  private static void addKeyed(Map<Integer, Set<Entry>> byKey, int key, Entry e) {
    byKey.computeIfAbsent(key, k -> new TreeSet<>(BY_FREE_GPUS)).add(e);
  }

  private static void removeKeyed(Map<Integer, Set<Entry>> byKey, int key, Entry e) {
    Set<Entry> set = byKey.get(key);
    set.remove(e);
    if (set.isEmpty()) {
      byKey.remove(key);
    }
  }

  private static Iterator<NodeState> nodes(Iterator<Entry> entries) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public NodeState next() {
        return entries.next().node;
      }
    };
  }

  /** Several sets of one order read as one, in that order. */
  private static final class Merge implements Iterator<Entry> {
    private record Head(Entry entry, Iterator<Entry> rest) {}

    private final PriorityQueue<Head> heads =
        new PriorityQueue<>(Comparator.comparing(Head::entry, BY_FREE_GPUS));

    Merge(List<Iterator<Entry>> parts) {
      for (Iterator<Entry> part : parts) {
        if (part.hasNext()) {
          heads.add(new Head(part.next(), part));
        }
      }
    }

    @Override
    public boolean hasNext() {
      return !heads.isEmpty();
    }

    @Override
    public Entry next() {
      Head head = heads.poll();
      if (head == null) {
        throw new NoSuchElementException();
      }
      if (head.rest().hasNext()) {
        heads.add(new Head(head.rest().next(), head.rest()));
      }
      return head.entry();
    }
  }
}
