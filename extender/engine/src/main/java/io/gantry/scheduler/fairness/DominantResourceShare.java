package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

/**
 * A queue's dominant resource share, the queue-order key of KAI reference §5.7 items 5 and 6: max
 * over resources of allocated / allocatable share.
 */
public final class DominantResourceShare {

  /**
   * The share term of a resource whose allocatable share is 0 is allocated × this, rather than a
   * division by zero: any allocation there is a heavy penalty, yet queues with more such allocation
   * still order after queues with less (KAI's noFairShareDrfMultiplier).
   */
  static final double NO_ALLOCATABLE_MULTIPLIER = 1000;

  private DominantResourceShare() {}

  /**
   * Computes max_r(allocated[r] / allocatable[r]), never below 0. An allocatable of -1 (unlimited)
   * is replaced by clusterTotal[r] first; a resulting allocatable of 0 makes the term allocated[r]
   * × {@value #NO_ALLOCATABLE_MULTIPLIER}.
   *
   * @param allocated the queue's allocation per resource
   * @param allocatable the queue's allocatable share per resource, -1 for unlimited
   * @param clusterTotal the cluster's capacity per resource
   * @throws IllegalArgumentException if the arrays differ in length
   */
  public static double of(double[] allocated, double[] allocatable, double[] clusterTotal) {
    requireNonNull(allocated, "allocated is null");
    requireNonNull(allocatable, "allocatable is null");
    requireNonNull(clusterTotal, "clusterTotal is null");
    if (allocatable.length != allocated.length || clusterTotal.length != allocated.length) {
      throw new IllegalArgumentException(
          "resource arrays differ in length: allocated "
              + allocated.length
              + ", allocatable "
              + allocatable.length
              + ", clusterTotal "
              + clusterTotal.length);
    }
    double dominant = 0;
    for (int r = 0; r < allocated.length; r++) {
      double share = allocatable[r] == DivisionInput.UNLIMITED ? clusterTotal[r] : allocatable[r];
      double term = share == 0 ? allocated[r] * NO_ALLOCATABLE_MULTIPLIER : allocated[r] / share;
      dominant = Math.max(dominant, term);
    }
    return dominant;
  }
}
