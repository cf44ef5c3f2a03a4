package io.gantry.scheduler.fairness;

import io.gantry.scheduler.framework.fit.CapacityExceeded;
import io.gantry.scheduler.framework.fit.NonPreemptibleOverQuota;
import io.gantry.scheduler.framework.fit.OverLimit;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.Resources;
import java.util.List;
import java.util.Optional;

/**
 * Queue limit and non-preemptible quota checks at allocation time (kai-reference §4.6 step 2 and
 * §5.5), from the leaf queue up to the root.
 */
public final class CapacityChecks {
  /** Limits and quotas are configured real numbers: comparisons with them allow rounding noise. */
  private static final double EPS = 1e-9;

  private CapacityChecks() {}

  /** {@code path} leaf first; {@code request} is what the job's tasks count for in a queue. */
  public static Optional<CapacityExceeded> check(
      List<QueueAttributes> path, Resources request, boolean nonPreemptible) {
    // indexed: asked for every job pass and every node a task is checked on
    for (int i = 0; i < path.size(); i++) {
      QueueAttributes q = path.get(i);
      for (ResourceKind r : ResourceKind.values()) {
        double requested = r.of(request);
        if (requested <= 0) {
          continue;
        }
        double limit = q.limit(r);
        if (limit != -1 && limit + EPS < q.allocated(r) + requested) {
          return Optional.of(new OverLimit(q.name(), r, limit, q.allocated(r), requested));
        }
        double quota = q.deserved(r);
        if (nonPreemptible
            && quota != -1
            && quota + EPS < q.allocatedNonPreemptible(r) + requested) {
          return Optional.of(
              new NonPreemptibleOverQuota(
                  q.name(), r, quota, q.allocatedNonPreemptible(r), requested));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * KAI's IsNonPreemptibleJobOverQueueQuota: a non-preemptible {@code request} would take some
   * queue on the path past its deserved quota (kai-reference §4.9, fact 9).
   */
  public static boolean nonPreemptibleOverQuota(List<QueueAttributes> path, Resources request) {
    for (QueueAttributes q : path) {
      for (ResourceKind r : ResourceKind.values()) {
        double requested = r.of(request);
        double quota = q.deserved(r);
        if (requested > 0
            && quota != -1
            && quota + EPS < q.allocatedNonPreemptible(r) + requested) {
          return true;
        }
      }
    }
    return false;
  }
}
