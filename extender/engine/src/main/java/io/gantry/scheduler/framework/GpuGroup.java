package io.gantry.scheduler.framework;

/**
 * One physical GPU shared by fractional tasks on a node; portions are per-device, two decimals. The
 * group holds its device from the first fraction placed on it until the last one leaves, no matter
 * which task opened it; {@code deviceFromReleasing} says where the device came from (a fraction
 * pipelined onto a device still being released) so it goes back there.
 */
final class GpuGroup {
  private final String id;
  private final boolean deviceFromReleasing;
  private double allocatedPortion;
  private double releasingPortion;
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

  double allocatedPortion() {
    return allocatedPortion;
  }

  double releasingPortion() {
    return releasingPortion;
  }

  int taskCount() {
    return taskCount;
  }

  /** Every fraction on the device is being released: the device frees up with them. */
  boolean allReleasing() {
    return allocatedPortion <= 0 && releasingPortion > 0;
  }

  void add(double portion, boolean releasing) {
    if (releasing) {
      releasingPortion = round(releasingPortion + portion);
    } else {
      allocatedPortion = round(allocatedPortion + portion);
    }
    taskCount++;
  }

  void remove(double portion, boolean releasing) {
    if (releasing) {
      releasingPortion = round(releasingPortion - portion);
    } else {
      allocatedPortion = round(allocatedPortion - portion);
    }
    taskCount--;
  }

  private static double round(double v) {
    return Math.round(v * 100.0) / 100.0;
  }
}
