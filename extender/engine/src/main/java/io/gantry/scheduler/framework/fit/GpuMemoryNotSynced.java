package io.gantry.scheduler.framework.fit;

/**
 * A {@code gpu-memory} request needs the node's per-device GPU memory label, and the node has none
 * (or it is not synced yet).
 */
public record GpuMemoryNotSynced() implements NodeFitReason {
  @Override
  public Kind kind() {
    return Kind.GPU_MEMORY_NOT_SYNCED;
  }
}
