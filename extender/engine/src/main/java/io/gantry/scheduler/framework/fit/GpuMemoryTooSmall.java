package io.gantry.scheduler.framework.fit;

/**
 * A {@code gpu-memory} request is larger than one of the node's devices: its portion there would be
 * over one GPU, which KAI rejects. {@code deviceMib} is the per-device memory the portion is
 * computed against (the node's label floored to a multiple of 100 MiB).
 */
public record GpuMemoryTooSmall(long requestedMib, long deviceMib) implements NodeFitReason {
  @Override
  public Kind kind() {
    return Kind.GPU_MEMORY_TOO_SMALL;
  }
}
