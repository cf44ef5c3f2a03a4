package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import java.util.Optional;

/**
 * One queue's quantities during a session, per resource (indexed by {@link
 * ResourceKind#ordinal()}): deserved, limit, weight in engine units; allocated and requested sums
 * of its subtree; the fair share computed at session open. Allocation changes as statements place
 * and undo tasks.
 */
public final class QueueAttributes {
  private static final int N = ResourceKind.values().length;

  private final QueueInfo info;
  private final double[] deserved = new double[N];
  private final double[] limit = new double[N];
  private final double[] weight = new double[N];
  private final double[] allocated = new double[N];
  private final double[] allocatedNonPreemptible = new double[N];
  private final double[] request = new double[N];
  private final double[] fairShare = new double[N];

  public QueueAttributes(QueueInfo info) {
    this.info = requireNonNull(info, "info is null");
    for (ResourceKind r : ResourceKind.values()) {
      QueueResource qr = info.resource(r);
      deserved[r.ordinal()] = qr.quota();
      limit[r.ordinal()] = qr.limit();
      weight[r.ordinal()] = qr.overQuotaWeight();
    }
  }

  public QueueInfo info() {
    return info;
  }

  public String name() {
    return info.name();
  }

  public Optional<String> parent() {
    return info.parent();
  }

  public int priority() {
    return info.priority();
  }

  public double deserved(ResourceKind r) {
    return deserved[r.ordinal()];
  }

  public double limit(ResourceKind r) {
    return limit[r.ordinal()];
  }

  public double weight(ResourceKind r) {
    return weight[r.ordinal()];
  }

  public double allocated(ResourceKind r) {
    return allocated[r.ordinal()];
  }

  public double allocatedNonPreemptible(ResourceKind r) {
    return allocatedNonPreemptible[r.ordinal()];
  }

  public double request(ResourceKind r) {
    return request[r.ordinal()];
  }

  public double fairShare(ResourceKind r) {
    return fairShare[r.ordinal()];
  }

  /**
   * max(deserved, fair share) capped by the limit; with unlimited deserved, the limit (-1 for
   * unlimited). kai-reference §5.2.
   */
  public double allocatable(ResourceKind r) {
    double d = deserved(r);
    double l = limit(r);
    if (d == QueueResource.UNLIMITED) {
      return l;
    }
    double a = Math.max(d, fairShare(r));
    return l == QueueResource.UNLIMITED ? a : Math.min(a, l);
  }

  void setFairShare(ResourceKind r, double value) {
    fairShare[r.ordinal()] = value;
  }

  void addAllocated(ResourceKind r, double amount, boolean nonPreemptible) {
    allocated[r.ordinal()] = round(allocated[r.ordinal()] + amount, r);
    if (nonPreemptible) {
      allocatedNonPreemptible[r.ordinal()] =
          round(allocatedNonPreemptible[r.ordinal()] + amount, r);
    }
  }

  void addRequest(ResourceKind r, double amount) {
    request[r.ordinal()] = round(request[r.ordinal()] + amount, r);
  }

  private static double round(double v, ResourceKind r) {
    return r == ResourceKind.GPU ? Math.round(v * 100.0) / 100.0 : Math.rint(v);
  }
}
