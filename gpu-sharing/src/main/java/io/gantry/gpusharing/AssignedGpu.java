package io.gantry.gpusharing;

import static java.util.Objects.requireNonNull;

/**
 * A physical device a placement was resolved to on its node: nvidia-smi's {@code index}, the device
 * {@code uuid} ({@code GPU-…}) and its memory, which a portion's memory limit is taken of.
 */
public record AssignedGpu(int index, String uuid, long memoryMib) {
  public AssignedGpu {
    requireNonNull(uuid, "uuid is null");
    if (index < 0) {
      throw new IllegalArgumentException("index must be >= 0, got " + index);
    }
    if (uuid.isEmpty() || uuid.contains(",")) {
      throw new IllegalArgumentException(
          "uuid must be non-empty without commas, got '" + uuid + "'");
    }
    if (memoryMib <= 0) {
      throw new IllegalArgumentException("memoryMib must be positive, got " + memoryMib);
    }
  }
}
