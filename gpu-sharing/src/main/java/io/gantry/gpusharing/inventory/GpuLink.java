package io.gantry.gpusharing.inventory;

import static java.util.Objects.requireNonNull;

/**
 * The connection between two GPUs from the topology matrix, with {@code gpuIndexA < gpuIndexB}.
 * {@code nvlinkCount} is the number of bonded NVLinks (the # of NV#) for NVLINK and 0 otherwise.
 */
public record GpuLink(int gpuIndexA, int gpuIndexB, LinkType type, int nvlinkCount) {

  public GpuLink {
    requireNonNull(type, "type is null");
    if (gpuIndexA < 0 || gpuIndexA >= gpuIndexB) {
      throw new IllegalArgumentException(
          "a link joins two GPUs with 0 <= gpuIndexA < gpuIndexB, got "
              + gpuIndexA
              + " and "
              + gpuIndexB);
    }
    if ((type == LinkType.NVLINK) != (nvlinkCount > 0)) {
      throw new IllegalArgumentException(
          "nvlinkCount is positive exactly for NVLINK, got " + type + " with " + nvlinkCount);
    }
  }

  /** As the matrix prints it: NV2, PIX, SYS, ... */
  public String label() {
    return type == LinkType.NVLINK ? "NV" + nvlinkCount : type.name();
  }
}
