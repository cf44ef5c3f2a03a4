package io.gantry.scheduler.framework;

import io.gantry.scheduler.model.GpuAmount;

/**
 * One physical GPU shared by fractional tasks on a node; portions are per-device hundredths. The
 * group holds its device from the first fraction placed on it until the last one leaves, no matter
 * which task opened it; {@code deviceFromReleasing} says where the device came from (a fraction
 * pipelined onto a device still being released) so it goes back there.
 */
final class GpuGroup {
  private static final GpuAmount WHOLE_DEVICE = GpuAmount.ofDevices(1);

  private final String id;
  private final boolean deviceFromReleasing;
  private GpuAmount allocatedPortion = GpuAmount.ZERO;
  private GpuAmount releasingPortion = GpuAmount.ZERO;
  private int taskCount;

  GpuGroup(String id, boolean deviceFromReleasing) {
    this.id = id;
    this.deviceFromReleasing = deviceFromReleasing;
  }

  String id() {
    return id;
  }

  boolean deviceFromReleasing() {
    return deviceFromReleasing;
  }

  GpuAmount allocatedPortion() {
    return allocatedPortion;
  }

  GpuAmount releasingPortion() {
    return releasingPortion;
  }

  int taskCount() {
    return taskCount;
  }

  /** Portion a new task can take once releasing fractions are gone (as the view's). */
  GpuAmount idleOrReleasingPortion() {
    return WHOLE_DEVICE.minus(allocatedPortion).max(GpuAmount.ZERO);
  }

  /** Every fraction on the device is being released: the device frees up with them. */
  boolean allReleasing() {
    return !allocatedPortion.isPositive() && releasingPortion.isPositive();
  }

  void add(GpuAmount portion, boolean releasing) {
    if (releasing) {
      releasingPortion = releasingPortion.plus(portion);
    } else {
      allocatedPortion = allocatedPortion.plus(portion);
    }
    taskCount++;
  }

  void remove(GpuAmount portion, boolean releasing) {
    if (releasing) {
      releasingPortion = releasingPortion.minus(portion);
    } else {
      allocatedPortion = allocatedPortion.minus(portion);
    }
    taskCount--;
  }
}
