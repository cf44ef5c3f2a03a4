package io.gantry.nodecommon.nvidiasmi;

import static java.util.Objects.requireNonNull;

/**
 * A compute process on a GPU: the GPU's UUID (under MIG, the parent GPU's: nvidia-smi does not say
 * which MIG device), the process id and the GPU memory it uses.
 */
public record GpuProcess(String gpuUuid, long pid, long usedMemoryMib) {
  public GpuProcess {
    requireNonNull(gpuUuid, "gpuUuid is null");
    if (pid <= 0 || usedMemoryMib < 0) {
      throw new IllegalArgumentException(
          "a process has a positive pid and no negative memory, got pid "
              + pid
              + " with "
              + usedMemoryMib
              + " MiB");
    }
  }
}
