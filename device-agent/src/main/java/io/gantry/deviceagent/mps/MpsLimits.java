package io.gantry.deviceagent.mps;

/**
 * The defaults an MPS control daemon gives its clients: the share of the GPU's SM threads, in
 * percent, and the pinned device memory, in MiB. A client's own {@code
 * CUDA_MPS_ACTIVE_THREAD_PERCENTAGE} and {@code CUDA_MPS_PINNED_DEVICE_MEM_LIMIT} (the contract's
 * environment) can only lower them, so a daemon takes the largest limits of the pods on its GPU.
 */
public record MpsLimits(int activeThreadPercentage, long pinnedMemoryMib) {
  public MpsLimits {
    if (activeThreadPercentage < 1 || activeThreadPercentage > 100) {
      throw new IllegalArgumentException(
          "activeThreadPercentage must be in 1..100, got " + activeThreadPercentage);
    }
    if (pinnedMemoryMib < 1) {
      throw new IllegalArgumentException(
          "pinnedMemoryMib must be positive, got " + pinnedMemoryMib);
    }
  }

  /** The larger of each limit. */
  public MpsLimits max(MpsLimits other) {
    return new MpsLimits(
        Math.max(activeThreadPercentage, other.activeThreadPercentage),
        Math.max(pinnedMemoryMib, other.pinnedMemoryMib));
  }

  /**
   * The control pipe commands that set these defaults; the daemon serves one GPU, device 0 to it.
   */
  public java.util.List<String> commands() {
    return java.util.List.of(
        "set_default_active_thread_percentage " + activeThreadPercentage,
        "set_default_device_pinned_mem_limit 0 " + pinnedMemoryMib + "M");
  }
}
