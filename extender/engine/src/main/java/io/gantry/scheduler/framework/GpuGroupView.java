package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.GpuAmount;

/** Read-only state of one shared GPU on a node, for scoring and reports. */
public record GpuGroupView(String id, GpuAmount allocatedPortion, GpuAmount releasingPortion) {
  private static final GpuAmount WHOLE_DEVICE = GpuAmount.ofDevices(1);

  public GpuGroupView {
    requireNonNull(id, "id is null");
    requireNonNull(allocatedPortion, "allocatedPortion is null");
    requireNonNull(releasingPortion, "releasingPortion is null");
  }

  /** Portion a new task can take without waiting for releasing tasks. */
  public GpuAmount idlePortion() {
    return WHOLE_DEVICE.minus(allocatedPortion).minus(releasingPortion).max(GpuAmount.ZERO);
  }

  /** Portion a new task can take once releasing tasks are gone (pipelining). */
  public GpuAmount idleOrReleasingPortion() {
    return WHOLE_DEVICE.minus(allocatedPortion).max(GpuAmount.ZERO);
  }

  public GpuAmount usedPortion() {
    return allocatedPortion.plus(releasingPortion);
  }

  /** Every fraction on the device is being released: the device frees up with them. */
  public boolean allReleasing() {
    return !allocatedPortion.isPositive() && releasingPortion.isPositive();
  }
}
