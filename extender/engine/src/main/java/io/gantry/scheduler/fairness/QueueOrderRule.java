package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;

/**
 * KAI's queue order (kai-reference §5.7) between two sibling queues, each with the request of the
 * job it would schedule next. First difference wins; negative puts {@code a} first.
 */
public final class QueueOrderRule {
  /** Fair and allocatable shares are real numbers: comparisons with them allow rounding noise. */
  private static final double EPS = 1e-9;

  // read on every comparison: values() would copy its array each time
  private static final ImmutableList<ResourceKind> KINDS =
      ImmutableList.copyOf(ResourceKind.values());

  private final ResourceVector clusterTotal;

  public QueueOrderRule(ResourceVector clusterTotal) {
    this.clusterTotal = requireNonNull(clusterTotal, "clusterTotal is null");
  }

  /**
   * {@code requestA} and {@code requestB}: what the next job of each queue counts for in it (GPUs,
   * CPU, memory).
   */
  public int compare(QueueAttributes a, Resources requestA, QueueAttributes b, Resources requestB) {
    return compare(a, requestA, Resources.ZERO, b, requestB, Resources.ZERO);
  }

  /**
   * What the order reads of one queue with the request of the job it would schedule next, computed
   * once so a caller can keep it while neither the queue nor the job changes.
   */
  public record Position(
      QueueAttributes queue,
      boolean overFairShare,
      boolean withinDeserved,
      boolean wantsZeroAllocatable,
      double share,
      double plainShare) {
    public Position {
      requireNonNull(queue, "queue is null");
    }
  }

  /** {@code q}'s position with {@code request}, for {@link #compare(Position, Position)}. */
  public Position position(QueueAttributes q, Resources request) {
    return new Position(
        q,
        overFairShare(q),
        withinDeserved(q, request),
        wantsZeroAllocatable(q, request),
        share(q, request),
        share(q, Resources.ZERO));
  }

  /** The order of {@link #compare(QueueAttributes, Resources, QueueAttributes, Resources)}. */
  public int compare(Position a, Position b) {
    if (a.overFairShare() != b.overFairShare()) {
      return a.overFairShare() ? 1 : -1;
    }
    if (a.withinDeserved() != b.withinDeserved()) {
      return a.withinDeserved() ? -1 : 1;
    }
    if (a.queue().priority() != b.queue().priority()) {
      return a.queue().priority() > b.queue().priority() ? -1 : 1;
    }
    if (a.wantsZeroAllocatable() != b.wantsZeroAllocatable()) {
      return a.wantsZeroAllocatable() ? 1 : -1;
    }
    if (Math.abs(a.share() - b.share()) > EPS) {
      return a.share() < b.share() ? -1 : 1;
    }
    if (Math.abs(a.plainShare() - b.plainShare()) > EPS) {
      return a.plainShare() < b.plainShare() ? -1 : 1;
    }
    int smaller = smallerAllocatable(a.queue(), b.queue());
    if (smaller != 0) {
      return smaller;
    }
    return Long.compare(a.queue().info().creationOrder(), b.queue().info().creationOrder());
  }

  /**
   * The same order as a victim queue needs it: the dominant-share step (item 5) takes each queue's
   * allocation less {@code removedA} / {@code removedB}, what was already chosen as victims from
   * its subtree (KAI passes the popped victims to the queue order).
   */
  public int compare(
      QueueAttributes a,
      Resources requestA,
      Resources removedA,
      QueueAttributes b,
      Resources requestB,
      Resources removedB) {
    boolean overA = overFairShare(a);
    boolean overB = overFairShare(b);
    if (overA != overB) {
      return overA ? 1 : -1;
    }
    boolean inQuotaA = withinDeserved(a, requestA);
    boolean inQuotaB = withinDeserved(b, requestB);
    if (inQuotaA != inQuotaB) {
      return inQuotaA ? -1 : 1;
    }
    if (a.priority() != b.priority()) {
      return a.priority() > b.priority() ? -1 : 1;
    }
    boolean zeroA = wantsZeroAllocatable(a, requestA);
    boolean zeroB = wantsZeroAllocatable(b, requestB);
    if (zeroA != zeroB) {
      return zeroA ? 1 : -1;
    }
    double shareA = share(a, requestA.minus(removedA));
    double shareB = share(b, requestB.minus(removedB));
    if (Math.abs(shareA - shareB) > EPS) {
      return shareA < shareB ? -1 : 1;
    }
    double plainA = share(a, Resources.ZERO);
    double plainB = share(b, Resources.ZERO);
    if (Math.abs(plainA - plainB) > EPS) {
      return plainA < plainB ? -1 : 1;
    }
    int smaller = smallerAllocatable(a, b);
    if (smaller != 0) {
      return smaller;
    }
    return Long.compare(a.info().creationOrder(), b.info().creationOrder());
  }

  /** Over fair share only when allocation exceeds the fair share in every resource. */
  static boolean overFairShare(QueueAttributes q) {
    for (int i = 0; i < KINDS.size(); i++) {
      ResourceKind r = KINDS.get(i);
      if (!(q.fairShare(r) + EPS < q.allocated(r))) {
        return false;
      }
    }
    return true;
  }

  private static boolean withinDeserved(QueueAttributes q, Resources request) {
    for (int i = 0; i < KINDS.size(); i++) {
      ResourceKind r = KINDS.get(i);
      double d = q.deserved(r);
      if (d != -1 && q.allocated(r) + r.of(request) > d + EPS) {
        return false;
      }
    }
    return true;
  }

  private static boolean wantsZeroAllocatable(QueueAttributes q, Resources request) {
    for (int i = 0; i < KINDS.size(); i++) {
      ResourceKind r = KINDS.get(i);
      if (r.of(request) > 0 && q.allocatable(r) == 0) {
        return true;
      }
    }
    return false;
  }

  /** The dominant resource share of the queue's allocation plus {@code request}. */
  private double share(QueueAttributes q, Resources request) {
    ResourceVector allocated =
        new ResourceVector(
            q.allocated(ResourceKind.GPU) + ResourceKind.GPU.of(request),
            q.allocated(ResourceKind.CPU) + ResourceKind.CPU.of(request),
            q.allocated(ResourceKind.MEMORY) + ResourceKind.MEMORY.of(request));
    return DominantResourceShare.of(allocated, q.allocatableShares(), clusterTotal);
  }

  /** The queue whose allocatable share is ≤ in all resources and < in one goes first. */
  private int smallerAllocatable(QueueAttributes a, QueueAttributes b) {
    boolean aLessEqual = true;
    boolean aLess = false;
    boolean bLessEqual = true;
    boolean bLess = false;
    for (int i = 0; i < KINDS.size(); i++) {
      ResourceKind r = KINDS.get(i);
      double x = effective(a.allocatable(r), r);
      double y = effective(b.allocatable(r), r);
      aLessEqual &= x <= y + EPS;
      aLess |= x + EPS < y;
      bLessEqual &= y <= x + EPS;
      bLess |= y + EPS < x;
    }
    if (aLessEqual && aLess) {
      return -1;
    }
    if (bLessEqual && bLess) {
      return 1;
    }
    return 0;
  }

  private double effective(double allocatable, ResourceKind r) {
    return allocatable == -1 ? clusterTotal.get(r) : allocatable;
  }
}
