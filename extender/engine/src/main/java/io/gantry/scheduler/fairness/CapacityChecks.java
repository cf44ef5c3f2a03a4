package io.gantry.scheduler.fairness;

import io.gantry.scheduler.framework.JobFitError;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.Resources;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * Queue limit and non-preemptible quota checks at allocation time (kai-reference §4.6 step 2 and
 * §5.5), from the leaf queue up to the root, with KAI's messages.
 */
public final class CapacityChecks {
  /** Limits and quotas are configured real numbers: comparisons with them allow rounding noise. */
  private static final double EPS = 1e-9;

  private CapacityChecks() {}

  /** {@code path} leaf first; {@code request} is what the job's tasks count for in a queue. */
  public static Optional<JobFitError> check(
      List<QueueAttributes> path, Resources request, boolean nonPreemptible) {
    for (QueueAttributes q : path) {
      for (ResourceKind r : ResourceKind.values()) {
        double requested = r.of(request);
        if (requested <= 0) {
          continue;
        }
        double limit = q.limit(r);
        if (limit != -1 && limit + EPS < q.allocated(r) + requested) {
          return Optional.of(
              new JobFitError(
                  JobFitError.OVER_LIMIT,
                  String.format(
                      "%s quota has reached the allowable limit of %s. Limit is %s, currently %s"
                          + " allocated and workload requested %s",
                      q.name(),
                      limitName(r),
                      amount(limit, r),
                      amount(q.allocated(r), r),
                      amount(requested, r))));
        }
        double quota = q.deserved(r);
        if (nonPreemptible
            && quota != -1
            && quota + EPS < q.allocatedNonPreemptible(r) + requested) {
          return Optional.of(
              new JobFitError(
                  JobFitError.NON_PREEMPTIBLE_OVER_QUOTA,
                  String.format(
                      "Non-preemptible workload is over quota. Workload requested %s, but %s quota"
                          + " is %s, while %s are already allocated for non-preemptible pods. Use a"
                          + " preemptible workload to go over quota.",
                      requestedAmount(requested, r),
                      q.name(),
                      amount(quota, r),
                      amount(q.allocatedNonPreemptible(r), r))));
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

  /** What the limit is of: "GPUs", "CPU cores", "memory" (KAI's wording). */
  private static String limitName(ResourceKind r) {
    return switch (r) {
      case GPU -> "GPUs";
      case CPU -> "CPU cores";
      case MEMORY -> "memory";
    };
  }

  /** An amount as KAI prints it: "4 GPUs", "16 cores", "500 GB". */
  static String amount(double value, ResourceKind r) {
    String unit =
        switch (r) {
          case GPU -> "GPUs";
          case CPU -> "cores";
          case MEMORY -> "GB";
        };
    return number(value, r) + " " + unit;
  }

  /** A workload's request as KAI prints it: "3 GPUs", "6 CPU cores", "200 GB memory". */
  private static String requestedAmount(double value, ResourceKind r) {
    String unit =
        switch (r) {
          case GPU -> "GPUs";
          case CPU -> "CPU cores";
          case MEMORY -> "GB memory";
        };
    return number(value, r) + " " + unit;
  }

  /** GPUs as devices, CPU in cores, memory in GB (10^9 bytes), without trailing zeros. */
  private static String number(double value, ResourceKind r) {
    double shown =
        switch (r) {
          case GPU -> value;
          case CPU -> value / 1000.0;
          case MEMORY -> value / 1e9;
        };
    return BigDecimal.valueOf(Math.round(shown * 1000.0) / 1000.0)
        .stripTrailingZeros()
        .toPlainString();
  }
}
