package io.gantry.gpusharing;

import static java.util.Objects.requireNonNull;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A shared-GPU request (KAI's {@code gpu-fraction} or {@code gpu-memory} annotation with {@code
 * gpu-fraction-num-devices}): each of {@code numDevices} devices receives the same portion. {@code
 * fraction} is the annotation's value as written; it becomes a {@link GpuAmount} in {@link
 * #portionOn}. {@code computeMode} is how the task shares its devices ({@code mps} annotation); a
 * device holds tasks of one mode only.
 */
public record GpuSharingRequest(
    OptionalDouble fraction, OptionalLong memoryMib, int numDevices, ComputeMode computeMode) {
  private static final GpuAmount ONE_DEVICE = GpuAmount.ofDevices(1);

  public GpuSharingRequest {
    requireNonNull(fraction, "fraction is null");
    requireNonNull(memoryMib, "memoryMib is null");
    requireNonNull(computeMode, "computeMode is null");
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

  /** A time-sliced fraction request. */
  public static GpuSharingRequest ofFraction(double fraction, int numDevices) {
    return new GpuSharingRequest(
        OptionalDouble.of(fraction), OptionalLong.empty(), numDevices, ComputeMode.TIME_SLICING);
  }

  /** A time-sliced memory request. */
  public static GpuSharingRequest ofMemory(long memoryMib, int numDevices) {
    return new GpuSharingRequest(
        OptionalDouble.empty(), OptionalLong.of(memoryMib), numDevices, ComputeMode.TIME_SLICING);
  }

  /** This request in {@code mode}. */
  public GpuSharingRequest withComputeMode(ComputeMode mode) {
    return new GpuSharingRequest(fraction, memoryMib, numDevices, mode);
  }

  public boolean byMemory() {
    return memoryMib.isPresent();
  }

  /**
   * The per-device portion on a node whose devices have {@code nodeGpuMemoryMib}. A fraction is
   * rounded to the nearest hundredth; a memory request is KAI's {@code ceil(memory / device memory
   * × 100) / 100} with the {@linkplain #deviceMemoryMib device memory} floored. Not capped: a
   * memory request larger than the device is a portion over one device, which no device of that
   * node can hold ({@link #fitsDeviceOn}).
   */
  public GpuAmount portionOn(long nodeGpuMemoryMib) {
    if (fraction.isPresent()) {
      return GpuAmount.ofDevicesRoundedHalfUp(fraction.getAsDouble());
    }
    return GpuAmount.ofShareRoundedUp(memoryMib.getAsLong(), deviceMemoryMib(nodeGpuMemoryMib));
  }

  /**
   * Whether one device of a node with {@code nodeGpuMemoryMib} can hold this request's portion: a
   * fraction always, a memory request when it is at most the device memory. KAI rejects the node
   * otherwise, even if it has whole GPUs free.
   */
  public boolean fitsDeviceOn(long nodeGpuMemoryMib) {
    return portionOn(nodeGpuMemoryMib).compareTo(ONE_DEVICE) <= 0;
  }

  /**
   * The device memory a memory request is divided by: the node's label floored to a multiple of 100
   * MiB as KAI does, 100 when unknown.
   */
  public static long deviceMemoryMib(long nodeGpuMemoryMib) {
    return Math.max(100, nodeGpuMemoryMib / 100 * 100);
  }

  /**
   * GPUs counted against quota on a node of the given GPU memory: the portion, at most one device
   * (a larger portion is never placed), on each of {@code numDevices} devices. Fair share and limit
   * checks convert pending memory requests this way.
   */
  public GpuAmount quotaGpusOn(long nodeGpuMemoryMib) {
    return quotaGpusAt(portionOn(nodeGpuMemoryMib).min(ONE_DEVICE));
  }

  /** GPUs counted against quota when each device holds {@code portion}: portion × devices. */
  public GpuAmount quotaGpusAt(GpuAmount portion) {
    return portion.times(numDevices);
  }
}
