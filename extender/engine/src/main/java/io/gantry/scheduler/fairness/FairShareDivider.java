package io.gantry.scheduler.fairness;

import static java.util.Comparator.comparing;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Divides one resource dimension among a queue tree the way KAI's proportion plugin does (KAI
 * reference §5.3): every level first grants deserved quota, then splits the surplus by priority
 * bucket and over-quota weight in whole units, then hands out the floored fractions one unit at a
 * time; children divide their parent's fair share.
 *
 * <p>Instances are immutable and thread-safe; {@link #divide} keeps all its working state on the
 * stack of the call.
 *
 * <p>Floating point: shares are sums of whole units, requestables and deserved quotas, so they are
 * kept exact where double arithmetic allows. Comparisons use a small tolerance, and every remaining
 * amount and every returned share is rounded to nine decimals so that 0.1 + 0.2 style noise never
 * turns into a lost unit or a share of 5.999999.
 */
public final class FairShareDivider {

  /** The amount handed out per queue in the leftover phase: one whole unit. */
  private static final double LEFTOVER_UNIT = 1;

  private static final double EPSILON = 1e-9;
  private static final double DECIMAL_SCALE = 1e9;

  /**
   * Below this magnitude a double has room for nine decimals, so rounding to them removes noise;
   * above it the spacing of doubles (at least 1.2e-10) is already about that grid, and such values
   * are millicores or bytes, which stay whole numbers under the sums and floors done here.
   */
  private static final double CLEANING_LIMIT = 1e6;

  /** Largest remainder first, then the older queue, then queue id (KAI's leftover order). */
  private static final Comparator<QueueShare> LEFTOVER_ORDER =
      Comparator.comparingDouble((QueueShare q) -> q.remainder)
          .reversed()
          .thenComparingLong(q -> q.input.creationOrder())
          .thenComparing(q -> q.input.queueId());

  private final double kValue;

  /**
   * @param kValue how strongly historical usage shifts over-quota shares; values at or below zero
   *     are treated as zero (usage ignored), as KAI does
   */
  public FairShareDivider(double kValue) {
    if (Double.isNaN(kValue) || kValue == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("kValue must be a finite number, was " + kValue);
    }
    this.kValue = Math.max(0, kValue);
  }

  /**
   * Divides totalAmount among the top-level queues, then each queue's fair share among its
   * children, recursively.
   *
   * @param totalAmount the cluster's capacity in this resource, at least 0
   * @param topLevel the roots of the queue tree; queue ids must be unique across the whole tree
   * @return queue id to fair share for every queue in the tree, sorted by queue id
   * @throws IllegalArgumentException if totalAmount is negative or not finite, or a queue id
   *     repeats
   */
  public ImmutableSortedMap<String, Double> divide(
      double totalAmount, List<DivisionInput> topLevel) {
    requireNonNull(topLevel, "topLevel is null");
    if (!Double.isFinite(totalAmount) || totalAmount < 0) {
      throw new IllegalArgumentException("totalAmount must be finite and >= 0, was " + totalAmount);
    }
    requireUniqueIds(topLevel, new TreeSet<>());
    SortedMap<String, Double> shares = new TreeMap<>();
    divideLevel(totalAmount, topLevel, shares);
    return ImmutableSortedMap.copyOfSorted(shares);
  }

  private static void requireUniqueIds(List<DivisionInput> queues, Set<String> seen) {
    for (DivisionInput queue : queues) {
      if (!seen.add(queue.queueId())) {
        throw new IllegalArgumentException("queue id " + queue.queueId() + " appears twice");
      }
      requireUniqueIds(queue.children(), seen);
    }
  }

  /** Divides amount among sibling queues and recurses into each one's children. */
  private void divideLevel(
      double amount, List<DivisionInput> siblings, SortedMap<String, Double> shares) {
    if (siblings.isEmpty()) {
      return;
    }
    List<QueueShare> level = new ArrayList<>(siblings.size());
    for (DivisionInput sibling : siblings) {
      level.add(new QueueShare(sibling));
    }
    // Results do not depend on this order; sorting only keeps the arithmetic sequence, and so any
    // last-bit rounding, the same whatever order the caller listed the queues in.
    level.sort(comparing(q -> q.input.queueId()));

    double remaining = grantDeserved(amount, level);
    // Over-commit (deserved quotas summing past the amount) leaves nothing for over-quota.
    if (isPositive(remaining)) {
      divideOverQuota(remaining, level);
    }
    for (QueueShare queue : level) {
      double fairShare = clean(queue.fairShare);
      shares.put(queue.input.queueId(), fairShare);
      // Children divide the parent's fair share, not its quota (KAI fact 6).
      divideLevel(fairShare, queue.input.children(), shares);
    }
  }

  /**
   * Deserved phase: priority plays no part and the grants may exceed the amount. An unlimited quota
   * deserves the whole amount being divided. Returns amount minus all grants (may be <= 0).
   */
  private static double grantDeserved(double amount, List<QueueShare> level) {
    double remaining = amount;
    for (QueueShare queue : level) {
      double deserved =
          queue.input.deserved() == DivisionInput.UNLIMITED ? amount : queue.input.deserved();
      double granted = Math.min(deserved, queue.requestable);
      queue.fairShare = granted;
      remaining -= granted;
    }
    return clean(remaining);
  }

  /**
   * Over-quota phase: buckets from highest priority down, each taking what it can use (rounds, then
   * leftovers) before the next bucket sees any of the surplus; weights never cross buckets.
   */
  private void divideOverQuota(double surplus, List<QueueShare> level) {
    SortedMap<Integer, List<QueueShare>> buckets = new TreeMap<>(Comparator.reverseOrder());
    for (QueueShare queue : level) {
      buckets.computeIfAbsent(queue.input.priority(), p -> new ArrayList<>()).add(queue);
    }
    double remaining = surplus;
    for (List<QueueShare> bucket : buckets.values()) {
      if (!isPositive(remaining)) {
        return;
      }
      remaining = divideInRounds(remaining, bucket);
      remaining = handOutLeftovers(remaining, bucket);
    }
  }

  /**
   * Splits amount among the bucket's unsatisfied queues in proportion to their share weights,
   * giving whole units to queues that want more than their offer. Returns what is left.
   *
   * <p>Another round runs only when some queue needed less than its offer, and such a queue is then
   * satisfied; satisfied queues never become unsatisfied again (fair shares only grow), so there
   * are at most bucket size + 1 rounds.
   */
  private double divideInRounds(double amount, List<QueueShare> bucket) {
    double remaining = amount;
    boolean anotherRound = true;
    while (anotherRound && isPositive(remaining)) {
      anotherRound = false;
      List<QueueShare> unsatisfied = new ArrayList<>();
      double totalWeight = 0;
      for (QueueShare queue : bucket) {
        if (!queue.isSatisfied()) {
          unsatisfied.add(queue);
          totalWeight += queue.input.overQuotaWeight();
        }
      }
      if (totalWeight <= 0) {
        break;
      }
      double[] shareWeights = new double[unsatisfied.size()];
      double shareWeightSum = 0;
      for (int i = 0; i < shareWeights.length; i++) {
        shareWeights[i] = shareWeight(unsatisfied.get(i), totalWeight);
        shareWeightSum += shareWeights[i];
      }
      if (shareWeightSum <= 0) {
        break;
      }

      double roundAmount = remaining;
      for (int i = 0; i < shareWeights.length; i++) {
        QueueShare queue = unsatisfied.get(i);
        // Weight 0 means no surplus at all, whatever usage would make of the share weight.
        if (queue.input.overQuotaWeight() == 0) {
          continue;
        }
        double offer = roundAmount * shareWeights[i] / shareWeightSum;
        double needed = queue.remainingRequestable();
        if (atMost(needed, offer)) {
          queue.satisfy();
          remaining -= needed;
          // What this queue left of its offer can go to the others in another round.
          anotherRound |= !atMost(offer, needed);
        } else {
          double units = floorUnits(offer);
          queue.fairShare += units;
          remaining -= units;
          double fraction = clean(offer - units);
          // As in KAI, a whole offer leaves the queue's earlier remainder record in place; only a
          // positive fraction replaces it, and only satisfaction removes it.
          if (fraction > 0) {
            queue.recordRemainder(fraction);
          }
        }
      }
      remaining = clean(remaining);
    }
    return remaining;
  }

  /**
   * max(0, W' + k·(W' − U)) with W' the weight normalized over the bucket's unsatisfied queues;
   * with k = 0 or no usage data this is plain weight proportionality.
   */
  private double shareWeight(QueueShare queue, double totalWeight) {
    double normalizedWeight = queue.input.overQuotaWeight() / totalWeight;
    return Math.max(0, normalizedWeight + kValue * (normalizedWeight - queue.input.usage()));
  }

  /**
   * Leftover phase: what the floored offers left over goes out min(1, left) at a time to the
   * bucket's queues with recorded remainders, in {@link #LEFTOVER_ORDER}.
   *
   * <p>Each queue receives at most one leftover unit: KAI pops each queue from its remainder heap
   * and never pushes it back, so "while amount is left and queues with remainders exist" visits
   * every queue once. One pass is also enough: when the rounds stop, what is left is the sum of the
   * last round's fractions, each below one unit and each recorded. Whatever is still left after the
   * pass (queues capped at their requestable, or a bucket whose weights were all 0) flows to the
   * lower buckets.
   *
   * <p>Unlike KAI, a queue whose remaining requestable is below the unit gets only that remaining
   * requestable, so no fair share exceeds min(limit, request); the rest stays available to the next
   * queue in line.
   */
  private static double handOutLeftovers(double amount, List<QueueShare> bucket) {
    List<QueueShare> candidates = new ArrayList<>();
    for (QueueShare queue : bucket) {
      if (queue.hasRemainder) {
        candidates.add(queue);
      }
    }
    candidates.sort(LEFTOVER_ORDER);
    double remaining = amount;
    for (QueueShare queue : candidates) {
      if (!isPositive(remaining)) {
        break;
      }
      double unit = Math.min(LEFTOVER_UNIT, remaining);
      double needed = queue.remainingRequestable();
      if (atMost(needed, unit)) {
        queue.satisfy();
        remaining -= needed;
      } else {
        queue.fairShare += unit;
        remaining -= unit;
      }
      remaining = clean(remaining);
    }
    return remaining;
  }

  /** Whole units of offer, counting an offer within rounding noise below n as n. */
  private static double floorUnits(double offer) {
    return Math.floor(offer + tolerance(offer));
  }

  private static boolean atMost(double a, double b) {
    return a <= b + tolerance(Math.max(Math.abs(a), Math.abs(b)));
  }

  private static boolean isPositive(double amount) {
    return amount > tolerance(amount);
  }

  /** EPSILON, or a few ulps where doubles are coarser than that (large byte counts). */
  private static double tolerance(double magnitude) {
    return Math.max(EPSILON, 4 * Math.ulp(magnitude));
  }

  /** Rounds to nine decimals; adding 0.0 turns -0.0 into 0.0 so equal shares compare equal. */
  private static double clean(double value) {
    if (Math.abs(value) >= CLEANING_LIMIT) {
      return value + 0.0;
    }
    return Math.rint(value * DECIMAL_SCALE) / DECIMAL_SCALE + 0.0;
  }

  /** One queue's working state while its level is divided. */
  private static final class QueueShare {
    final DivisionInput input;
    final double requestable;
    double fairShare;
    boolean hasRemainder;
    double remainder;

    QueueShare(DivisionInput input) {
      this.input = input;
      this.requestable = input.requestable();
    }

    /** Request ≤ fair share, or limit ≤ fair share: the same as requestable ≤ fair share. */
    boolean isSatisfied() {
      return atMost(requestable, fairShare);
    }

    double remainingRequestable() {
      return requestable - fairShare;
    }

    /** Gives the queue exactly its requestable, so satisfaction holds without rounding noise. */
    void satisfy() {
      fairShare = requestable;
      hasRemainder = false;
    }

    void recordRemainder(double fraction) {
      hasRemainder = true;
      remainder = fraction;
    }
  }
}
