package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The queue hierarchy of one session with each queue's {@link QueueAttributes}. Allocation and
 * request are accounted on a leaf and propagate to every ancestor (kai-reference §5.8).
 */
public final class QueueTree {
  private final ImmutableMap<String, QueueAttributes> queues;
  private final ImmutableListMultimap<String, QueueAttributes> children;
  private final ImmutableList<QueueAttributes> roots;
  // each queue's path, leaf first: every placement charges one and every capacity check reads one
  private final ImmutableMap<String, ImmutableList<QueueAttributes>> paths;
  private final ResourceVector clusterTotal;

  /**
   * {@code queueInfos} in source order; every parent named must be among them. {@code clusterTotal}
   * is what the queues divide.
   */
  public QueueTree(List<QueueInfo> queueInfos, ResourceVector clusterTotal) {
    Map<String, QueueAttributes> byName = new LinkedHashMap<>();
    for (QueueInfo q : queueInfos) {
      byName.put(q.name(), new QueueAttributes(q));
    }
    ImmutableListMultimap.Builder<String, QueueAttributes> kids = ImmutableListMultimap.builder();
    ImmutableList.Builder<QueueAttributes> top = ImmutableList.builder();
    for (QueueAttributes q : byName.values()) {
      if (q.parent().isPresent()) {
        kids.put(q.parent().get(), q);
      } else {
        top.add(q);
      }
    }
    this.queues = ImmutableMap.copyOf(byName);
    this.children = kids.build();
    this.roots = top.build();
    ImmutableMap.Builder<String, ImmutableList<QueueAttributes>> pathsByName =
        ImmutableMap.builderWithExpectedSize(queues.size());
    for (QueueAttributes leaf : queues.values()) {
      ImmutableList.Builder<QueueAttributes> path = ImmutableList.builder();
      for (QueueAttributes q = leaf; q != null; q = q.parent().map(queues::get).orElse(null)) {
        path.add(q);
      }
      pathsByName.put(leaf.name(), path.build());
    }
    this.paths = pathsByName.buildOrThrow();
    this.clusterTotal = requireNonNull(clusterTotal, "clusterTotal is null");
  }

  public Optional<QueueAttributes> find(String name) {
    return Optional.ofNullable(queues.get(name));
  }

  public QueueAttributes get(String name) {
    QueueAttributes q = queues.get(name);
    if (q == null) {
      throw new IllegalArgumentException("unknown queue " + name);
    }
    return q;
  }

  public ImmutableList<QueueAttributes> roots() {
    return roots;
  }

  public boolean isLeaf(String name) {
    return !children.containsKey(name);
  }

  public ImmutableList<QueueAttributes> all() {
    return queues.values().asList();
  }

  public ResourceVector clusterTotal() {
    return clusterTotal;
  }

  /** The queue and its ancestors, leaf first. */
  public ImmutableList<QueueAttributes> pathToRoot(String leaf) {
    ImmutableList<QueueAttributes> path = paths.get(leaf);
    if (path == null) {
      throw new IllegalArgumentException("unknown queue " + leaf);
    }
    return path;
  }

  /** {@code amounts} (GPUs, CPU, memory) count as allocated in the leaf and every ancestor. */
  public void addAllocated(String leaf, Resources amounts, boolean nonPreemptible) {
    ImmutableList<QueueAttributes> path = pathToRoot(leaf);
    for (int i = 0; i < path.size(); i++) {
      path.get(i).addAllocated(amounts, nonPreemptible);
    }
  }

  /** Gives back what {@link #addAllocated} counted, in the leaf and every ancestor. */
  public void removeAllocated(String leaf, Resources amounts, boolean nonPreemptible) {
    ImmutableList<QueueAttributes> path = pathToRoot(leaf);
    for (int i = 0; i < path.size(); i++) {
      path.get(i).removeAllocated(amounts, nonPreemptible);
    }
  }

  /** {@code amounts} (GPUs, CPU, memory) count as requested in the leaf and every ancestor. */
  public void addRequest(String leaf, Resources amounts) {
    ImmutableList<QueueAttributes> path = pathToRoot(leaf);
    for (int i = 0; i < path.size(); i++) {
      path.get(i).addRequest(amounts);
    }
  }

  /** Every queue's quantities as they are now, by name. */
  public ImmutableMap<String, QueueSnapshot> capture() {
    ImmutableMap.Builder<String, QueueSnapshot> out = ImmutableMap.builder();
    queues.forEach((name, q) -> out.put(name, QueueSnapshot.of(q)));
    return out.buildOrThrow();
  }

  /** Divides the cluster among the queues, per resource, with the §5.3 algorithm. */
  public void computeFairShares(FairShareDivider divider) {
    computeFairShares(divider, Map.of());
  }

  /**
   * The same, with each queue's historical usage (kai-reference §5.4, 0..1 per resource) shifting
   * the over-quota phase; a queue without an entry has used nothing.
   */
  public void computeFairShares(FairShareDivider divider, Map<String, ResourceVector> usage) {
    for (ResourceKind r : ResourceKind.values()) {
      List<DivisionInput> top = new ArrayList<>();
      for (QueueAttributes q : roots) {
        top.add(input(q, r, usage));
      }
      ImmutableSortedMap<String, Double> shares = divider.divide(clusterTotal.get(r), top);
      shares.forEach((name, share) -> queues.get(name).setFairShare(r, share));
    }
  }

  private DivisionInput input(
      QueueAttributes q, ResourceKind r, Map<String, ResourceVector> usage) {
    List<DivisionInput> kids = new ArrayList<>();
    for (QueueAttributes child : children.get(q.name())) {
      kids.add(input(child, r, usage));
    }
    ResourceVector used = usage.get(q.name());
    return new DivisionInput(
        q.name(),
        q.deserved(r),
        q.limit(r),
        q.weight(r),
        q.priority(),
        q.request(r),
        used == null ? 0.0 : Math.max(0, used.get(r)),
        q.info().creationOrder(),
        kids);
  }
}
