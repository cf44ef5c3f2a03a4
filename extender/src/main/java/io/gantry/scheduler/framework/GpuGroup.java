package io.gantry.scheduler.framework;

/** One physical GPU shared by fractional tasks on a node; portions are per-device, two decimals. */
final class GpuGroup {
  private final String id;
  private double allocatedPortion;
  private double releasingPortion;
  private int taskCount;

  GpuGroup(String id) {
    this.id = id;
  }

  String id() {
    return id;
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
