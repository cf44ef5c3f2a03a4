package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;

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
   */
  public static double of(
      ResourceVector allocated, ResourceVector allocatable, ResourceVector clusterTotal) {
    requireNonNull(allocated, "allocated is null");
    requireNonNull(allocatable, "allocatable is null");
    requireNonNull(clusterTotal, "clusterTotal is null");
    double dominant = 0;
    for (ResourceKind r : ResourceKind.values()) {
      double share =
          allocatable.get(r) == DivisionInput.UNLIMITED ? clusterTotal.get(r) : allocatable.get(r);
      double term =
          share == 0 ? allocated.get(r) * NO_ALLOCATABLE_MULTIPLIER : allocated.get(r) / share;
      dominant = Math.max(dominant, term);
    }
    return dominant;
  }
}
