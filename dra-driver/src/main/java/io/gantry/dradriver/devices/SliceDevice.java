package io.gantry.dradriver.devices;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One GPU as the driver publishes it in its ResourceSlice and prepares it: the device {@code name}
 * ({@code gpu-<index>}), nvidia-smi's {@code index} and {@code uuid}, the product, its architecture
 * when known, the NVLink domain it belongs to (none for a GPU without NVLink peers), the PCI bus id
 * in the extended BDF form Kubernetes' standard attribute uses ({@code 0000:53:00.0}) and its
 * memory.
 */
public record SliceDevice(
    String name,
    int index,
    String uuid,
    String productName,
    Optional<String> architecture,
    Optional<String> nvlinkDomain,
    String pciBusId,
    long memoryMib) {
  public SliceDevice {
    requireNonNull(name, "name is null");
    requireNonNull(uuid, "uuid is null");
    requireNonNull(productName, "productName is null");
    requireNonNull(architecture, "architecture is null");
    requireNonNull(nvlinkDomain, "nvlinkDomain is null");
    requireNonNull(pciBusId, "pciBusId is null");
    if (index < 0) {
      throw new IllegalArgumentException("index cannot be negative, got " + index);
    }
    if (memoryMib <= 0) {
      throw new IllegalArgumentException("memoryMib must be positive, got " + memoryMib);
    }
  }

  /** Memory in bytes, the unit of the {@code memory} capacity. */
  public long memoryBytes() {
    return memoryMib * 1024 * 1024;
  }
}
