package io.gantry.gpusharing;

import static java.util.Objects.requireNonNull;

/**
 * Read-only state of one shared GPU on a node (kai-reference §7), for fit checks, scoring and
 * reports. Portions are per device; the memory accessors convert them with the device's memory.
 */
public record GpuGroupView(
    String id,
    GpuAmount allocatedPortion,
    GpuAmount releasingPortion,
    ComputeMode computeMode,
    DeviceSource source,
    GpuAmount pipelinedPortion) {
  private static final GpuAmount WHOLE_DEVICE = GpuAmount.ofDevices(1);

  public GpuGroupView {
    requireNonNull(id, "id is null");
    requireNonNull(allocatedPortion, "allocatedPortion is null");
    requireNonNull(releasingPortion, "releasingPortion is null");
    requireNonNull(computeMode, "computeMode is null");
    requireNonNull(source, "source is null");
    requireNonNull(pipelinedPortion, "pipelinedPortion is null");
  }

  /** A group none of whose tasks is pipelined. */
  public GpuGroupView(
      String id,
      GpuAmount allocatedPortion,
      GpuAmount releasingPortion,
      ComputeMode computeMode,
      DeviceSource source) {
    this(id, allocatedPortion, releasingPortion, computeMode, source, GpuAmount.ZERO);
  }

  /**
   * Portion a new task can take without waiting for releasing tasks: none while the device itself
   * is still being released (the group was opened by a pipelined task), nor while only pipelined
   * tasks hold the group (KAI: a group with no allocated memory has no idle room; its device waits
   * for its reservation pod).
   */
  public GpuAmount idlePortion() {
    if (source == DeviceSource.RELEASING
        || (pipelinedPortion.isPositive() && pipelinedPortion.compareTo(allocatedPortion) >= 0)) {
      return GpuAmount.ZERO;
    }
    return WHOLE_DEVICE.minus(allocatedPortion).minus(releasingPortion).max(GpuAmount.ZERO);
  }

  /** Portion a new task can take once releasing tasks are gone (pipelining). */
  public GpuAmount idleOrReleasingPortion() {
    return GpuAmount.ofHundredths(idleOrReleasingHundredths());
  }

  /**
   * The same in hundredths, without an amount: read for every group of a node at each placement
   * there and for every group a fit check tries.
   */
  public long idleOrReleasingHundredths() {
    return Math.max(
        0, Math.subtractExact(WHOLE_DEVICE.hundredths(), allocatedPortion.hundredths()));
  }

  public GpuAmount usedPortion() {
    return allocatedPortion.plus(releasingPortion);
  }

  /** Every fraction on the device is being released: the device frees up with them. */
  public boolean allReleasing() {
    return !allocatedPortion.isPositive() && releasingPortion.isPositive();
  }

  /**
   * Whether a task of {@code mode} asking {@code portion} per device may join this group, now or
   * after pipelining: the group keeps some allocated task, has the room once releasing fractions
   * leave (KAI: {@code gpuMemory − allocated + releasing ≥ request}, not all of it releasing), and
   * runs the same compute mode.
   */
  public boolean accepts(GpuAmount portion, ComputeMode mode) {
    return mode == computeMode
        && !allReleasing()
        && idleOrReleasingHundredths() >= portion.hundredths();
  }

  /** KAI's {@code AllocatedSharedGPUsMemory} on a device of {@code deviceMemoryMib}. */
  public long allocatedMemoryMib(long deviceMemoryMib) {
    return PortionMemory.memoryMib(allocatedPortion, deviceMemoryMib);
  }

  /** KAI's {@code ReleasingSharedGPUsMemory} on a device of {@code deviceMemoryMib}. */
  public long releasingMemoryMib(long deviceMemoryMib) {
    return PortionMemory.memoryMib(releasingPortion, deviceMemoryMib);
  }

  /** KAI's {@code UsedSharedGPUsMemory}: allocated plus releasing. */
  public long usedMemoryMib(long deviceMemoryMib) {
    return PortionMemory.memoryMib(usedPortion(), deviceMemoryMib);
  }
}
