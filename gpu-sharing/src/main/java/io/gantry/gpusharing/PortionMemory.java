package io.gantry.gpusharing;

/**
 * Portion-to-memory conversion: the MiB a portion of a device stands for, rounded down, as KAI's
 * binder computes {@code int(nvidia.com/gpu.memory × portion)}. The reverse rule, memory to
 * portion, rounds up and lives with the request ({@link GpuSharingRequest#portionOn}).
 */
public final class PortionMemory {
  private PortionMemory() {}

  /**
   * {@code floor(portion × deviceMemoryMib)}, computed exactly in hundredths.
   *
   * @throws IllegalArgumentException if {@code deviceMemoryMib} is negative
   */
  public static long memoryMib(GpuAmount portion, long deviceMemoryMib) {
    if (deviceMemoryMib < 0) {
      throw new IllegalArgumentException("deviceMemoryMib must be >= 0, got " + deviceMemoryMib);
    }
    return Math.floorDiv(Math.multiplyExact(portion.hundredths(), deviceMemoryMib), 100);
  }
}
