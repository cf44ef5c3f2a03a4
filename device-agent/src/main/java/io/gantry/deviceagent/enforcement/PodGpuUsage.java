package io.gantry.deviceagent.enforcement;

import static java.util.Objects.requireNonNull;

/** The GPU memory all of one pod's processes use on one GPU. */
public record PodGpuUsage(String podUid, String gpuUuid, long usedMemoryMib) {
  public PodGpuUsage {
    requireNonNull(podUid, "podUid is null");
    requireNonNull(gpuUuid, "gpuUuid is null");
    if (usedMemoryMib < 0) {
      throw new IllegalArgumentException("usedMemoryMib cannot be negative, got " + usedMemoryMib);
    }
  }
}
