package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.framework.ReclaimCeiling;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * KAI's reclaim rules (kai-reference §5.6): which pending job may reclaim at all, which queues it
 * may take from, and whether a simulated set of victims keeps every queue within the strategies and
 * the siblings' saturation order. Amounts are GPU devices, CPU millicores and memory bytes; a
 * deserved or allocatable share of -1 is unlimited.
 */
public final class ReclaimRules {
  private static final double EPS = 1e-9;
  private static final double UNLIMITED = -1;

  private final double saturationMultiplier;

  /** {@code saturationMultiplier}: KAI's {@code relcaimerSaturationMultiplier}, at least 1. */
  public ReclaimRules(double saturationMultiplier) {
    if (!(saturationMultiplier >= 1)) {
      throw new IllegalArgumentException(
          "saturationMultiplier must be >= 1, was " + saturationMultiplier);
    }
    this.saturationMultiplier = saturationMultiplier;
  }

  /**
   * §5.6.1 CanReclaimResources: the reclaimer's leaf queue stays within its fair share with the
   * request in every resource; a non-preemptible reclaimer also keeps its non-preemptible
   * allocation within the deserved quota.
   */
  public static boolean canReclaimResources(
      QueueAmounts leaf, ResourceVector request, boolean preemptible) {
    for (ResourceKind r : ResourceKind.values()) {
      if (!lessEqual(leaf.allocated(r) + request.get(r), leaf.fairShare(r))) {
        return false;
      }
    }
    return preemptible || nonPreemptibleWithinDeserved(leaf, request);
  }

  /**
   * §5.6.2 victim pre-filter, on the queues' current state: when the reclaimer's leveled queue
   * would exceed its deserved quota with the request, a victim queue is eligible only if its
   * leveled queue is over its allocatable share in some resource; otherwise it is eligible if,
   * among the resources the reclaimer requests, its leveled queue is over deserved in one (or under
   * deserved in none).
   */
  public static boolean victimEligible(
      Function<String, QueueAmounts> queues,
      String reclaimerQueue,
      ResourceVector request,
      String victimQueue) {
    QueueAmounts[] leveled = leveled(queues, reclaimerQueue, victimQueue);
    QueueAmounts reclaimer = leveled[0];
    QueueAmounts victim = leveled[1];
    if (!allocatedPlusWithinDeserved(reclaimer, request)) {
      return overAllocatable(victim, allocated(victim));
    }
    boolean underDeserved = false;
    for (ResourceKind r : ResourceKind.values()) {
      if (request.get(r) <= 0 || victim.deserved(r) == UNLIMITED) {
        continue;
      }
      if (victim.allocated(r) > victim.deserved(r) + EPS) {
        return true;
      }
      if (victim.allocated(r) + EPS < victim.deserved(r)) {
        underDeserved = true;
      }
    }
    return !underDeserved;
  }

  /**
   * §5.6.3 Reclaimable, on the queue state captured when the reclaimer's search started: every
   * chunk of every victim queue (in order) must, before it is taken away, leave the victim's
   * leveled queue within one strategy; then for the reclaimer's queue and each ancestor, its
   * saturation with the request must stay below every sibling that lost resources, and a
   * non-preemptible reclaimer must stay within deserved quota at every level.
   *
   * @param chunksByVictimQueue victim leaf queue to the chunks reclaimed from it, in victim order
   */
  public boolean reclaimable(
      Function<String, QueueAmounts> captured,
      String reclaimerQueue,
      ResourceVector request,
      boolean preemptible,
      Map<String, List<ResourceVector>> chunksByVictimQueue) {
    Map<String, ResourceVector> remaining = new LinkedHashMap<>();
    Map<String, Set<ResourceKind>> involved = new LinkedHashMap<>();
    for (Map.Entry<String, List<ResourceVector>> e : chunksByVictimQueue.entrySet()) {
      String victimLeaf = e.getKey();
      QueueAmounts[] leveled = leveled(captured, reclaimerQueue, victimLeaf);
      QueueAmounts reclaimerLevel = leveled[0];
      QueueAmounts victimLevel = leveled[1];
      Set<ResourceKind> chunkResources = positive(e.getValue());
      involved.merge(victimLeaf, chunkResources, ReclaimRules::union);
      for (ResourceVector chunk : e.getValue()) {
        ResourceVector victimRemaining =
            remaining.computeIfAbsent(victimLevel.name(), n -> allocated(victimLevel));
        if (!fitsStrategy(request, reclaimerLevel, victimLevel, victimRemaining)) {
          return false;
        }
        for (QueueAmounts q : pathToRoot(captured, victimLeaf)) {
          ResourceVector before = remaining.computeIfAbsent(q.name(), n -> allocated(q));
          remaining.put(q.name(), before.minus(chunk));
          if (!q.name().equals(victimLeaf)) {
            involved.merge(q.name(), involved.get(victimLeaf), ReclaimRules::union);
          }
        }
      }
    }
    return withinBoundaries(captured, reclaimerQueue, request, preemptible, remaining, involved);
  }

  /**
   * An upper bound on the victim GPUs §5.6.3 lets one scenario take (the bound behind {@link
   * ReclaimCeiling}). A chunk goes only while its victim's leveled queue remains over its
   * allocatable share or its deserved quota in some resource, and the queue's allocation only falls
   * as chunks go. So a leveled queue over in no resource gives nothing; one over in GPUs alone
   * gives at most its GPU excess plus the last chunk, which is no larger than its largest victim
   * job; one over in CPU or memory may give all its victims hold. Victim leaf queues under one
   * leveled queue share its bound.
   *
   * @param victimsByLeaf victim leaf queue to the GPUs of its victims the caller counts
   */
  public static double reclaimableGpus(
      Function<String, QueueAmounts> queues,
      String reclaimerQueue,
      Map<String, ReclaimCeiling.VictimGpus> victimsByLeaf) {
    Map<String, QueueAmounts> levels = new LinkedHashMap<>();
    Map<String, Double> gpus = new LinkedHashMap<>();
    Map<String, Double> largestJob = new LinkedHashMap<>();
    for (Map.Entry<String, ReclaimCeiling.VictimGpus> e : victimsByLeaf.entrySet()) {
      QueueAmounts level = leveled(queues, reclaimerQueue, e.getKey())[1];
      levels.put(level.name(), level);
      gpus.merge(level.name(), e.getValue().gpus(), Double::sum);
      largestJob.merge(level.name(), e.getValue().largestJobGpus(), Math::max);
    }
    double total = 0;
    for (QueueAmounts level : levels.values()) {
      double held = gpus.get(level.name());
      total += Math.min(held, gpusGiven(level, largestJob.get(level.name()), held));
    }
    return total;
  }

  /** What the strategies let a leveled queue give at most, in GPUs; see reclaimableGpus. */
  private static double gpusGiven(QueueAmounts level, double largestChunk, double held) {
    for (ResourceKind r : ResourceKind.values()) {
      if (r != ResourceKind.GPU && over(level, r, level.allocated(r))) {
        return held;
      }
    }
    if (!over(level, ResourceKind.GPU, level.allocated(ResourceKind.GPU))) {
      return 0;
    }
    double threshold = strategyThreshold(level, ResourceKind.GPU);
    return threshold == UNLIMITED
        ? held
        : level.allocated(ResourceKind.GPU) - threshold + largestChunk;
  }

  /**
   * Whether {@code amount} is over what either strategy keeps in resource {@code r}: the
   * allocatable share (MaintainFairShare) or the deserved quota (GuaranteeDeservedQuota).
   */
  private static boolean over(QueueAmounts q, ResourceKind r, double amount) {
    double threshold = strategyThreshold(q, r);
    return threshold != UNLIMITED && !lessEqual(amount, threshold);
  }

  /** The smaller of the allocatable share and the deserved quota, leaving out unlimited ones. */
  private static double strategyThreshold(QueueAmounts q, ResourceKind r) {
    double allocatable = q.allocatable(r);
    double deserved = q.deserved(r);
    if (allocatable == UNLIMITED) {
      return deserved;
    }
    return deserved == UNLIMITED ? allocatable : Math.min(allocatable, deserved);
  }

  private boolean withinBoundaries(
      Function<String, QueueAmounts> captured,
      String reclaimerQueue,
      ResourceVector request,
      boolean preemptible,
      Map<String, ResourceVector> remaining,
      Map<String, Set<ResourceKind>> involved) {
    Set<ResourceKind> requested = positive(List.of(request));
    for (QueueAmounts level : pathToRoot(captured, reclaimerQueue)) {
      ResourceVector levelAllocated =
          remaining.getOrDefault(level.name(), allocated(level)).plus(request);
      for (String siblingName : remaining.keySet()) {
        QueueAmounts sibling = captured.apply(siblingName);
        if (!sibling.parent().equals(level.parent()) || siblingName.equals(level.name())) {
          continue;
        }
        Set<ResourceKind> resources =
            union(
                involved.getOrDefault(siblingName, EnumSet.noneOf(ResourceKind.class)), requested);
        if (!saturationStaysLower(
            resources, levelAllocated, level, remaining.get(siblingName), sibling)) {
          return false;
        }
      }
      if (!preemptible && !nonPreemptibleWithinDeserved(level, request)) {
        return false;
      }
    }
    return true;
  }

  /**
   * For every resource, the reclaiming level's saturation (allocated / fair share) times the
   * multiplier stays below the sibling's, whenever the reclaiming level is over its fair share and
   * the sibling has one. Resources where both fair shares are unlimited are skipped.
   */
  private boolean saturationStaysLower(
      Set<ResourceKind> resources,
      ResourceVector levelAllocated,
      QueueAmounts level,
      ResourceVector siblingAllocated,
      QueueAmounts sibling) {
    for (ResourceKind r : resources) {
      double levelFair = level.fairShare(r);
      double siblingFair = sibling.fairShare(r);
      if (levelFair == UNLIMITED && siblingFair == UNLIMITED) {
        continue;
      }
      double ratioLevel = saturation(levelAllocated.get(r), levelFair);
      double ratioSibling = saturation(siblingAllocated.get(r), siblingFair);
      if (ratioLevel > 1 && siblingFair > 0 && ratioLevel * saturationMultiplier >= ratioSibling) {
        return false;
      }
    }
    return true;
  }

  private static double saturation(double allocated, double fairShare) {
    if (fairShare == 0) {
      return allocated > 0 ? Double.POSITIVE_INFINITY : 0;
    }
    if (fairShare == UNLIMITED) {
      return 0;
    }
    return allocated / fairShare;
  }

  /**
   * MaintainFairShare: the victim's leveled queue remains over its allocatable share in some
   * resource; or GuaranteeDeservedQuota: the reclaimer's leveled queue stays within deserved with
   * the request, and the victim's remains over deserved in some resource.
   */
  private static boolean fitsStrategy(
      ResourceVector request,
      QueueAmounts reclaimerLevel,
      QueueAmounts victimLevel,
      ResourceVector victimRemaining) {
    if (overAllocatable(victimLevel, victimRemaining)) {
      return true;
    }
    return allocatedPlusWithinDeserved(reclaimerLevel, request)
        && overDeserved(victimLevel, victimRemaining);
  }

  private static boolean overAllocatable(QueueAmounts q, ResourceVector amounts) {
    for (ResourceKind r : ResourceKind.values()) {
      if (!lessEqual(amounts.get(r), q.allocatable(r))) {
        return true;
      }
    }
    return false;
  }

  private static boolean overDeserved(QueueAmounts q, ResourceVector amounts) {
    for (ResourceKind r : ResourceKind.values()) {
      if (!lessEqual(amounts.get(r), q.deserved(r))) {
        return true;
      }
    }
    return false;
  }

  private static boolean allocatedPlusWithinDeserved(QueueAmounts q, ResourceVector request) {
    for (ResourceKind r : ResourceKind.values()) {
      if (!lessEqual(q.allocated(r) + request.get(r), q.deserved(r))) {
        return false;
      }
    }
    return true;
  }

  private static boolean nonPreemptibleWithinDeserved(QueueAmounts q, ResourceVector request) {
    for (ResourceKind r : ResourceKind.values()) {
      if (!lessEqual(q.allocatedNonPreemptible(r) + request.get(r), q.deserved(r))) {
        return false;
      }
    }
    return true;
  }

  /** {@code a <= b} where a bound of -1 is unlimited (KAI's compareQuantities). */
  private static boolean lessEqual(double a, double b) {
    if (b == UNLIMITED) {
      return true;
    }
    if (a == UNLIMITED) {
      return false;
    }
    return a <= b + EPS;
  }

  /**
   * The two queues directly below the lowest common ancestor of the reclaimer's and the victim's
   * leaf queues: [reclaimer side, victim side].
   */
  static QueueAmounts[] leveled(
      Function<String, QueueAmounts> queues, String reclaimerQueue, String victimQueue) {
    List<QueueAmounts> reclaimers = rootFirst(queues, reclaimerQueue);
    List<QueueAmounts> victims = rootFirst(queues, victimQueue);
    int min = Math.min(reclaimers.size(), victims.size());
    QueueAmounts r = null;
    QueueAmounts v = null;
    for (int i = 0; i < min; i++) {
      r = reclaimers.get(i);
      v = victims.get(i);
      if (!r.name().equals(v.name())) {
        break;
      }
    }
    return new QueueAmounts[] {requireNonNull(r), requireNonNull(v)};
  }

  private static List<QueueAmounts> rootFirst(Function<String, QueueAmounts> queues, String leaf) {
    List<QueueAmounts> path = pathToRoot(queues, leaf);
    List<QueueAmounts> out = new ArrayList<>(path.size());
    for (int i = path.size() - 1; i >= 0; i--) {
      out.add(path.get(i));
    }
    return out;
  }

  private static List<QueueAmounts> pathToRoot(Function<String, QueueAmounts> queues, String leaf) {
    List<QueueAmounts> path = new ArrayList<>();
    QueueAmounts q = queues.apply(leaf);
    while (q != null) {
      path.add(q);
      q = q.parent().map(queues).orElse(null);
    }
    return path;
  }

  private static ResourceVector allocated(QueueAmounts q) {
    return new ResourceVector(
        q.allocated(ResourceKind.GPU),
        q.allocated(ResourceKind.CPU),
        q.allocated(ResourceKind.MEMORY));
  }

  private static Set<ResourceKind> positive(List<ResourceVector> vectors) {
    Set<ResourceKind> out = EnumSet.noneOf(ResourceKind.class);
    for (ResourceVector v : vectors) {
      for (ResourceKind r : ResourceKind.values()) {
        if (v.get(r) > 0) {
          out.add(r);
        }
      }
    }
    return out;
  }

  private static Set<ResourceKind> union(Set<ResourceKind> a, Set<ResourceKind> b) {
    Set<ResourceKind> out = EnumSet.noneOf(ResourceKind.class);
    out.addAll(a);
    out.addAll(b);
    return out;
  }
}
