package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * One queue's quantities in one resource dimension, as the fair-share division reads them (KAI
 * reference §5.2).
 *
 * @param queueId unique across the whole tree; the last tie-breaker wherever queues are ordered
 * @param deserved quota; {@value #UNLIMITED} means "as much as the parent divides"
 * @param maxAllowed limit; {@value #UNLIMITED} means no limit, while 0 is a hard cap of zero
 * @param overQuotaWeight share of the surplus within the queue's priority bucket; 0 means the queue
 *     never receives surplus
 * @param priority over-quota priority; higher buckets take the surplus before lower ones
 * @param request allocated plus pending requests of the queue and all its descendants
 * @param usage normalized historical usage, 0 without usage data
 * @param creationOrder smaller is older; older queues win ties on leftover units
 * @param children child queues, which divide this queue's fair share among themselves
 */
public record DivisionInput(
    String queueId,
    double deserved,
    double maxAllowed,
    double overQuotaWeight,
    int priority,
    double request,
    double usage,
    long creationOrder,
    List<DivisionInput> children) {

  /** The value of {@link #deserved} and {@link #maxAllowed} that means "no bound". */
  public static final double UNLIMITED = -1;

  public DivisionInput {
    requireNonNull(queueId, "queueId is null");
    if (queueId.isEmpty()) {
      throw new IllegalArgumentException("queueId is empty");
    }
    requireQuantity("deserved", queueId, deserved);
    requireQuantity("maxAllowed", queueId, maxAllowed);
    requireNonNegative("overQuotaWeight", queueId, overQuotaWeight);
    requireNonNegative("request", queueId, request);
    // Usage is a ratio of windowed sums and is normally within 0..1; values above 1 are accepted
    // (they only lower the queue's share weight) so that a metrics glitch cannot stop a cycle.
    requireNonNegative("usage", queueId, usage);
    children = ImmutableList.copyOf(requireNonNull(children, "children is null"));
  }

  /** min(maxAllowed, request), or request when the queue has no limit. */
  public double requestable() {
    return maxAllowed == UNLIMITED ? request : Math.min(maxAllowed, request);
  }

  private static void requireQuantity(String field, String queueId, double value) {
    if (value != UNLIMITED && (!Double.isFinite(value) || value < 0)) {
      throw new IllegalArgumentException(
          "queue " + queueId + ": " + field + " must be -1 or finite and >= 0, was " + value);
    }
  }

  private static void requireNonNegative(String field, String queueId, double value) {
    if (!Double.isFinite(value) || value < 0) {
      throw new IllegalArgumentException(
          "queue " + queueId + ": " + field + " must be finite and >= 0, was " + value);
    }
  }
}
