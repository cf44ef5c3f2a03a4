package io.gantry.nodecommon.nvidiasmi;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.GpuDevice;
import java.util.List;
import java.util.Optional;

/**
 * What nvidia-smi -q -x says: the driver, and the GPUs in index order (without NUMA nodes or MIG
 * profile names, which come from other commands).
 */
public record SmiQuery(
    String driverVersion, Optional<String> cudaVersion, List<GpuDevice> devices) {
  public SmiQuery {
    requireNonNull(driverVersion, "driverVersion is null");
    requireNonNull(cudaVersion, "cudaVersion is null");
    devices = List.copyOf(requireNonNull(devices, "devices is null"));
  }
}
