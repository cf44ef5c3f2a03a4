package io.gantry.deviceagent.mps;

import io.gantry.deviceagent.kube.PodAllocation;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.PortionMemory;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/** Which GPUs MPS pods use, and the limits their daemons need. */
public final class MpsPods {
  private MpsPods() {}

  /**
   * The contract's limits for one device of an MPS allocation: its portion of threads and memory.
   */
  public static MpsLimits limits(GpuAllocation allocation, AssignedGpu device) {
    return new MpsLimits(
        (int) allocation.portion().hundredths(),
        PortionMemory.memoryMib(allocation.portion(), device.memoryMib()));
  }

  /**
   * GPU UUID to the largest limits among the resolved MPS allocations of {@code live} pods (those
   * whose allocation this build can read) on node {@code nodeName}.
   */
  public static SortedMap<String, MpsLimits> wantedOf(List<V1Pod> live, String nodeName) {
    return wanted(
        live.stream().map(PodAllocation::of).flatMap(Optional::stream).toList(), nodeName);
  }

  /**
   * GPU UUID to the largest limits among the resolved MPS allocations of {@code live} pods on node
   * {@code nodeName}.
   */
  public static SortedMap<String, MpsLimits> wanted(List<PodAllocation> live, String nodeName) {
    SortedMap<String, MpsLimits> wanted = new TreeMap<>();
    for (PodAllocation pod : live) {
      GpuAllocation allocation = pod.allocation();
      if (allocation.computeMode() != ComputeMode.MPS
          || !allocation.isResolved()
          || !allocation.node().equals(nodeName)) {
        continue;
      }
      for (AssignedGpu device : allocation.devices()) {
        wanted.merge(device.uuid(), limits(allocation, device), MpsLimits::max);
      }
    }
    return wanted;
  }
}
