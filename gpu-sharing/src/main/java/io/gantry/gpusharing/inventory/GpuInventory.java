package io.gantry.gpusharing.inventory;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What a GPU node has: its GPUs in index order, the GPU-pair connections of the topology matrix
 * (when {@code linkMatrixAvailable}; every pair, ordered by GPU pair) and the NVLink domains
 * (ordered by lowest GPU index).
 */
public record GpuInventory(
    String driverVersion,
    Optional<String> cudaVersion,
    List<GpuDevice> devices,
    boolean linkMatrixAvailable,
    List<GpuLink> gpuLinks,
    List<NvlinkDomain> nvlinkDomains) {

  public GpuInventory {
    requireNonNull(driverVersion, "driverVersion is null");
    requireNonNull(cudaVersion, "cudaVersion is null");
    devices = List.copyOf(requireNonNull(devices, "devices is null"));
    gpuLinks = List.copyOf(requireNonNull(gpuLinks, "gpuLinks is null"));
    nvlinkDomains = List.copyOf(requireNonNull(nvlinkDomains, "nvlinkDomains is null"));
    for (int i = 0; i < devices.size(); i++) {
      if (devices.get(i).index() != i) {
        throw new IllegalArgumentException(
            "devices must be in index order 0..n-1, found index "
                + devices.get(i).index()
                + " at position "
                + i);
      }
    }
    if (!linkMatrixAvailable && !gpuLinks.isEmpty()) {
      throw new IllegalArgumentException("gpuLinks without a link matrix");
    }
  }
}
