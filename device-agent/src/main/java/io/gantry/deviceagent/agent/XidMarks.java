package io.gantry.deviceagent.agent;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.nvml.XidError;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The GPUs a critical XID made unhealthy. The driver reports no recovery, so a marked GPU stays
 * unhealthy until the agent restarts (as with NVIDIA's device plugin): after the GPU is reset or
 * the node drained and rebooted, the restarted agent starts clean. Thread-safe.
 */
final class XidMarks {
  private final SortedMap<String, List<String>> reasonsByUuid = new TreeMap<>();

  /** Marks the GPU; false when it already had this reason. */
  synchronized boolean mark(XidError error) {
    List<String> reasons = reasonsByUuid.computeIfAbsent(error.gpuUuid(), u -> new ArrayList<>());
    if (reasons.contains(error.reason())) {
      return false;
    }
    reasons.add(error.reason());
    return true;
  }

  /** {@code inventory} with each marked GPU unhealthy, its XID reasons after discovery's own. */
  synchronized GpuInventory overlay(GpuInventory inventory) {
    if (reasonsByUuid.isEmpty()) {
      return inventory;
    }
    List<GpuDevice> devices = new ArrayList<>();
    for (GpuDevice device : inventory.devices()) {
      List<String> xids = reasonsByUuid.get(device.uuid());
      if (xids == null) {
        devices.add(device);
        continue;
      }
      List<String> reasons = new ArrayList<>(device.health().reasons());
      reasons.addAll(xids);
      devices.add(device.withHealth(GpuHealth.fromReasons(reasons)));
    }
    return new GpuInventory(
        inventory.driverVersion(),
        inventory.cudaVersion(),
        devices,
        inventory.linkMatrixAvailable(),
        inventory.gpuLinks(),
        inventory.nvlinkDomains());
  }
}
