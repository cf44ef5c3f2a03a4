package io.gantry.scheduler.plugins;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.util.Optional;

/**
 * What a GPU task asks of one node, as {@link FragmentationAwarePlugin} learns the mix: whole
 * devices or a shared portion on some devices, CPU, memory, and the node constraints (a GPU model
 * is a required node label).
 */
record DemandShape(
    Optional<GpuSharingRequest> sharing,
    long wholeDevices,
    long cpuMillis,
    long memoryBytes,
    PodPlacementRequirements placement) {

  DemandShape {
    requireNonNull(sharing, "sharing is null");
    requireNonNull(placement, "placement is null");
  }

  /**
   * The task's shape; empty for a task that uses no whole or shared GPU of the nodes' devices (CPU
   * only, MIG, or DRA claims): it cannot use the GPUs whose fragmentation is measured.
   */
  static Optional<DemandShape> of(TaskInfo task) {
    if (!task.requestsGpu() || task.requestsMig() || !task.resourceClaims().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new DemandShape(
            task.gpuSharing(),
            task.request().gpus().wholeDevices(),
            task.request().cpuMillis(),
            task.request().memoryBytes(),
            task.placement()));
  }

  /**
   * The GPU it asks for, in devices: a shared portion as requested (by fraction), or whole ones.
   */
  double gpuAsk() {
    return sharing
        .map(r -> r.fraction().orElse(1.0) * r.numDevices())
        .orElse((double) wholeDevices);
  }

  /** Devices the task needs. */
  int devices() {
    return sharing.map(GpuSharingRequest::numDevices).orElse(Math.toIntExact(wholeDevices));
  }

  /** Hundredths of a device it needs on each, on a node with devices of this memory. */
  int portionOn(long nodeGpuMemoryMib) {
    if (sharing.isEmpty()) {
      return NodeIdleRoom.DEVICE;
    }
    GpuSharingRequest s = sharing.get();
    if (!s.fitsDeviceOn(nodeGpuMemoryMib)) {
      return NodeIdleRoom.DEVICE + 1;
    }
    return Math.toIntExact(s.portionOn(nodeGpuMemoryMib).hundredths());
  }
}
