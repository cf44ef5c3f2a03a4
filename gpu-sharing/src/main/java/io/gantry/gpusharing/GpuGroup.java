package io.gantry.gpusharing;

/**
 * One physical GPU shared by fractional tasks on a node; portions are per-device hundredths. The
 * group holds its device from the first fraction placed on it until the last one leaves, no matter
 * which task opened it; {@code source} says where the device came from (a fraction pipelined onto a
 * device still being released takes it from releasing capacity) so it goes back there. The first
 * task fixes the group's compute mode.
 */
final class GpuGroup {
  private final String id;
  private final DeviceSource source;
  private final ComputeMode computeMode;
  private GpuAmount allocatedPortion = GpuAmount.ZERO;
  private GpuAmount releasingPortion = GpuAmount.ZERO;

  /** The part of {@code allocatedPortion} held by pipelined tasks, which are not bound yet. */
  private GpuAmount pipelinedPortion = GpuAmount.ZERO;

  private int taskCount;

  /**
   * The last view, until the group changes: every placement on the node re-derives its shared rooms
   * from every group's view, and most of its groups did not change.
   */
  private GpuGroupView view;

  GpuGroup(String id, DeviceSource source, ComputeMode computeMode) {
    this.id = id;
    this.source = source;
    this.computeMode = computeMode;
  }

  String id() {
    return id;
  }

  DeviceSource source() {
    return source;
  }

  int taskCount() {
    return taskCount;
  }

  GpuGroupView view() {
    if (view == null) {
      view =
          new GpuGroupView(
              id, allocatedPortion, releasingPortion, computeMode, source, pipelinedPortion);
    }
    return view;
  }

  void add(GpuAmount portion, boolean releasing) {
    if (releasing) {
      releasingPortion = releasingPortion.plus(portion);
    } else {
      allocatedPortion = allocatedPortion.plus(portion);
    }
    taskCount++;
    view = null;
  }

  /** Marks {@code portion} of the allocated portion as held by a pipelined task, or unmarks it. */
  void pipelined(GpuAmount portion, boolean add) {
    pipelinedPortion = add ? pipelinedPortion.plus(portion) : pipelinedPortion.minus(portion);
    view = null;
  }

  void remove(GpuAmount portion, boolean releasing) {
    if (releasing) {
      releasingPortion = releasingPortion.minus(portion);
    } else {
      allocatedPortion = allocatedPortion.minus(portion);
    }
    taskCount--;
    view = null;
  }
}
