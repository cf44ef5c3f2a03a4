package io.gantry.scheduler.fairness;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.util.Optional;

/**
 * One queue's quantities during a session, per {@link ResourceKind}: deserved, limit, weight in
 * engine units; allocated and requested sums of its subtree, kept exact (GPUs in hundredths); the
 * fair share computed at session open, a real number. Allocation changes as statements place and
 * undo tasks.
 */
public final class QueueAttributes implements QueueAmounts {
  private final QueueInfo info;
  private final ExactSum allocated = new ExactSum();
  private final ExactSum allocatedNonPreemptible = new ExactSum();
  private Resources request = Resources.ZERO;
  private ResourceVector fairShare = ResourceVector.ZERO;
  private long version;

  public QueueAttributes(QueueInfo info) {
    this.info = requireNonNull(info, "info is null");
  }

  public QueueInfo info() {
    return info;
  }

  @Override
  public String name() {
    return info.name();
  }

  @Override
  public Optional<String> parent() {
    return info.parent();
  }

  public int priority() {
    return info.priority();
  }

  @Override
  public double deserved(ResourceKind r) {
    return info.resource(r).quota();
  }

  public double limit(ResourceKind r) {
    return info.resource(r).limit();
  }

  public double weight(ResourceKind r) {
    return info.resource(r).overQuotaWeight();
  }

  @Override
  public double allocated(ResourceKind r) {
    return allocated.of(r);
  }

  @Override
  public double allocatedNonPreemptible(ResourceKind r) {
    return allocatedNonPreemptible.of(r);
  }

  public double request(ResourceKind r) {
    return r.of(request);
  }

  @Override
  public double fairShare(ResourceKind r) {
    return fairShare.get(r);
  }

  /** The fair share in every resource. */
  public ResourceVector fairShares() {
    return fairShare;
  }

  /**
   * max(deserved, fair share) capped by the limit; with unlimited deserved, the limit (-1 for
   * unlimited). kai-reference §5.2.
   */
  @Override
  public double allocatable(ResourceKind r) {
    double d = deserved(r);
    double l = limit(r);
    if (d == QueueResource.UNLIMITED) {
      return l;
    }
    double a = Math.max(d, fairShare(r));
    return l == QueueResource.UNLIMITED ? a : Math.min(a, l);
  }

  /** The allocatable share in every resource, -1 where unlimited. */
  public ResourceVector allocatableShares() {
    return new ResourceVector(
        allocatable(ResourceKind.GPU),
        allocatable(ResourceKind.CPU),
        allocatable(ResourceKind.MEMORY));
  }

  /** Changes whenever any of the queue's quantities does, so derived values can be cached. */
  public long version() {
    return version;
  }

  void setFairShare(ResourceKind r, double value) {
    fairShare = fairShare.with(r, value);
    version++;
  }

  /** GPUs, CPU and memory of {@code amounts} count as allocated; extended resources are ignored. */
  void addAllocated(Resources amounts, boolean nonPreemptible) {
    allocated.add(amounts, 1);
    if (nonPreemptible) {
      allocatedNonPreemptible.add(amounts, 1);
    }
    version++;
  }

  void removeAllocated(Resources amounts, boolean nonPreemptible) {
    allocated.add(amounts, -1);
    if (nonPreemptible) {
      allocatedNonPreemptible.add(amounts, -1);
    }
    version++;
  }

  void addRequest(Resources amounts) {
    request = request.plus(amounts);
    version++;
  }

  /**
   * GPUs (in hundredths), CPU and memory summed in place: every placement and undo changes the
   * allocation of its queue and each ancestor, which a {@link Resources} sum would copy each time.
   * Reads as {@link ResourceKind#of} reads a {@link Resources}.
   */
  private static final class ExactSum {
    private long gpuHundredths;
    private long cpuMillis;
    private long memoryBytes;

    void add(Resources amounts, int sign) {
      gpuHundredths = Math.addExact(gpuHundredths, sign * amounts.gpus().hundredths());
      cpuMillis += sign * amounts.cpuMillis();
      memoryBytes += sign * amounts.memoryBytes();
    }

    double of(ResourceKind r) {
      return switch (r) {
        case GPU -> GpuAmount.toDevices(gpuHundredths);
        case CPU -> cpuMillis;
        case MEMORY -> memoryBytes;
      };
    }
  }
}
