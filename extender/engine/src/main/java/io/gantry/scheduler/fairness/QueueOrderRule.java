package io.gantry.scheduler.fairness;

import io.gantry.scheduler.model.ResourceKind;

/**
 * KAI's queue order (kai-reference §5.7) between two sibling queues, each with the request of the
 * job it would schedule next. First difference wins; negative puts {@code a} first.
 */
public final class QueueOrderRule {
  private static final double EPS = 1e-9;

  private final double[] clusterTotal;

  public QueueOrderRule(double[] clusterTotal) {
    this.clusterTotal = clusterTotal.clone();
  }

  public int compare(QueueAttributes a, double[] requestA, QueueAttributes b, double[] requestB) {
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
    int c = Double.compare(share(a, requestA), share(b, requestB));
    if (Math.abs(share(a, requestA) - share(b, requestB)) > EPS && c != 0) {
      return c;
    }
    double plainA = share(a, new double[ResourceKind.values().length]);
    double plainB = share(b, new double[ResourceKind.values().length]);
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
    for (ResourceKind r : ResourceKind.values()) {
      if (!(q.fairShare(r) + EPS < q.allocated(r))) {
        return false;
      }
    }
    return true;
  }

  private static boolean withinDeserved(QueueAttributes q, double[] request) {
    for (ResourceKind r : ResourceKind.values()) {
      double d = q.deserved(r);
      if (d != -1 && q.allocated(r) + request[r.ordinal()] > d + EPS) {
        return false;
      }
    }
    return true;
  }

  private static boolean wantsZeroAllocatable(QueueAttributes q, double[] request) {
    for (ResourceKind r : ResourceKind.values()) {
      if (request[r.ordinal()] > 0 && q.allocatable(r) == 0) {
        return true;
      }
    }
    return false;
  }

  private double share(QueueAttributes q, double[] request) {
    int n = ResourceKind.values().length;
    double[] allocated = new double[n];
    double[] allocatable = new double[n];
    for (ResourceKind r : ResourceKind.values()) {
      allocated[r.ordinal()] = q.allocated(r) + request[r.ordinal()];
      allocatable[r.ordinal()] = q.allocatable(r);
    }
    return DominantResourceShare.of(allocated, allocatable, clusterTotal);
  }

  /** The queue whose allocatable share is ≤ in all resources and < in one goes first. */
  private int smallerAllocatable(QueueAttributes a, QueueAttributes b) {
    boolean aLessEqual = true;
    boolean aLess = false;
    boolean bLessEqual = true;
    boolean bLess = false;
    for (ResourceKind r : ResourceKind.values()) {
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
    return allocatable == -1 ? clusterTotal[r.ordinal()] : allocatable;
  }
}
