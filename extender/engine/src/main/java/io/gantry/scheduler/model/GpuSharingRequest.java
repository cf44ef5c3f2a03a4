package io.gantry.scheduler.model;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A shared-GPU request (KAI's {@code gpu-fraction} or {@code gpu-memory} annotation with {@code
 * gpu-fraction-num-devices}): each of {@code numDevices} devices receives the same portion. {@code
 * fraction} is the annotation's value as written; it becomes a {@link GpuAmount} in {@link
 * #portionOn}.
 */
public record GpuSharingRequest(OptionalDouble fraction, OptionalLong memoryMib, int numDevices) {

  public GpuSharingRequest {
    if (fraction.isPresent() == memoryMib.isPresent()) {
      throw new IllegalArgumentException("exactly one of fraction and memoryMib must be set");
    }
    if (fraction.isPresent() && (fraction.getAsDouble() <= 0 || fraction.getAsDouble() > 1)) {
      throw new IllegalArgumentException(
          "fraction must be in (0, 1], got " + fraction.getAsDouble());
    }
    if (memoryMib.isPresent() && memoryMib.getAsLong() <= 0) {
      throw new IllegalArgumentException(
          "memoryMib must be positive, got " + memoryMib.getAsLong());
    }
    if (numDevices < 1) {
      throw new IllegalArgumentException("numDevices must be >= 1, got " + numDevices);
    }
  }

  public static GpuSharingRequest ofFraction(double fraction, int numDevices) {
    return new GpuSharingRequest(OptionalDouble.of(fraction), OptionalLong.empty(), numDevices);
  }

  public static GpuSharingRequest ofMemory(long memoryMib, int numDevices) {
    return new GpuSharingRequest(OptionalDouble.empty(), OptionalLong.of(memoryMib), numDevices);
  }

  public boolean byMemory() {
    return memoryMib.isPresent();
  }

  /**
   * The per-device portion on a node whose devices have {@code nodeGpuMemoryMib}. A fraction is
   * rounded to the nearest hundredth; a memory request is KAI's {@code ceil(memory / node memory ×
   * 100) / 100}, with the node memory floored to a multiple of 100 MiB (100 when unknown), capped
   * at one device.
   */
  public GpuAmount portionOn(long nodeGpuMemoryMib) {
    if (fraction.isPresent()) {
      return GpuAmount.ofDevicesRoundedHalfUp(fraction.getAsDouble());
    }
    long flooredMib = Math.max(100, nodeGpuMemoryMib / 100 * 100);
    long requestedMib = memoryMib.getAsLong();
    return requestedMib >= flooredMib
        ? GpuAmount.ofDevices(1)
        : GpuAmount.ofShareRoundedUp(requestedMib, flooredMib);
  }

  /** GPUs counted against quota on a node of the given GPU memory. */
  public GpuAmount quotaGpusOn(long nodeGpuMemoryMib) {
    return quotaGpusAt(portionOn(nodeGpuMemoryMib));
  }

  /** GPUs counted against quota when each device holds {@code portion}: portion × devices. */
  public GpuAmount quotaGpusAt(GpuAmount portion) {
    return portion.times(numDevices);
  }
}
