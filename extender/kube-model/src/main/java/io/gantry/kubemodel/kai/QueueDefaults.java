package io.gantry.kubemodel.kai;

import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * How the scheduler reads a Queue's spec (kai-reference §2.1, §14): priority defaults to {@value
 * QueueInfo#DEFAULT_PRIORITY}; an unset quota guarantees nothing; an unset limit is a cap of zero
 * and only {@code -1} is unlimited; an unset or {@code -1} overQuotaWeight never receives surplus;
 * a resource left out entirely is all three. CPU is in millicores and GPU in devices as written;
 * memory is written in MB (10^6 bytes) and kept in bytes.
 */
public final class QueueDefaults {
  private static final double BYTES_PER_MB = 1_000_000.0;

  private QueueDefaults() {}

  public static int priority(OptionalInt priority) {
    return priority.orElse(QueueInfo.DEFAULT_PRIORITY);
  }

  /** A resource the Queue does not list at all. */
  public static QueueResource absent() {
    return new QueueResource(0, 0, 0);
  }

  public static QueueResource resource(
      ResourceKind kind,
      OptionalDouble quota,
      OptionalDouble overQuotaWeight,
      OptionalDouble limit) {
    double unit = kind == ResourceKind.MEMORY ? BYTES_PER_MB : 1;
    double q = quota.orElse(0);
    double l = limit.orElse(0);
    return new QueueResource(
        q == QueueResource.UNLIMITED ? QueueResource.UNLIMITED : q * unit,
        Math.max(0, overQuotaWeight.orElse(0)),
        l == QueueResource.UNLIMITED ? QueueResource.UNLIMITED : l * unit);
  }
}
