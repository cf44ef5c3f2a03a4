package io.gantry.gpusharing;

import java.math.BigDecimal;

/**
 * An amount of GPU in hundredths of a device, exactly: whole devices, a shared task's per-device
 * portion, a queue's GPUs. KAI keeps portions to two decimals ({@code %.2f}), so hundredths hold
 * every amount the scheduler accounts without rounding noise. Amounts may be negative (a node
 * over-committed in its snapshot); fair-share quantities, which are real numbers, are doubles from
 * {@link #toDouble()} on.
 */
public record GpuAmount(long hundredths) implements Comparable<GpuAmount> {
  public static final GpuAmount ZERO = new GpuAmount(0);

  private static final long HUNDREDTHS_PER_DEVICE = 100;

  public static GpuAmount ofDevices(long devices) {
    return ofHundredths(Math.multiplyExact(devices, HUNDREDTHS_PER_DEVICE));
  }

  /**
   * The amounts of one device and less, made once: a shared task's portion is asked for on every
   * node it is checked on, and sums of quotas and claims add "no devices" far more often than some.
   * Immutable values, so sharing them is invisible.
   */
  private static final GpuAmount[] UP_TO_ONE_DEVICE = upToOneDevice();

  private static GpuAmount[] upToOneDevice() {
    GpuAmount[] amounts = new GpuAmount[(int) HUNDREDTHS_PER_DEVICE + 1];
    amounts[0] = ZERO;
    for (int h = 1; h < amounts.length; h++) {
      amounts[h] = new GpuAmount(h);
    }
    return amounts;
  }

  public static GpuAmount ofHundredths(long hundredths) {
    return hundredths >= 0 && hundredths <= HUNDREDTHS_PER_DEVICE
        ? UP_TO_ONE_DEVICE[(int) hundredths]
        : new GpuAmount(hundredths);
  }

  /**
   * {@code devices} to the nearest hundredth, a half rounding up: {@code Math.round(devices × 100)}
   * hundredths, with the product taken in double arithmetic (so 0.333 is 0.33 and 0.5 is 0.5). This
   * is how a {@code gpu-fraction} annotation becomes a portion.
   *
   * @throws IllegalArgumentException if {@code devices} is not finite or out of range
   */
  public static GpuAmount ofDevicesRoundedHalfUp(double devices) {
    double scaled = devices * HUNDREDTHS_PER_DEVICE;
    if (!Double.isFinite(scaled) || Math.abs(scaled) >= Long.MAX_VALUE) {
      throw new IllegalArgumentException("not a GPU amount: " + devices + " devices");
    }
    return ofHundredths(Math.round(scaled));
  }

  /**
   * The share {@code part / whole} of one device, rounded up to the next hundredth, computed
   * exactly: KAI's portion for a {@code gpu-memory} request is {@code ceil(requested / node GPU
   * memory × 100) / 100}.
   *
   * @throws IllegalArgumentException if {@code part} is negative or {@code whole} is not positive
   */
  public static GpuAmount ofShareRoundedUp(long part, long whole) {
    if (part < 0 || whole <= 0) {
      throw new IllegalArgumentException(
          "share needs part >= 0 and whole > 0, got " + part + " / " + whole);
    }
    long scaled = Math.multiplyExact(part, HUNDREDTHS_PER_DEVICE);
    return ofHundredths(-Math.floorDiv(-scaled, whole));
  }

  // a value: adding or taking nothing returns an operand, which sums started at ZERO and
  // CPU-only tasks do on every placement
  public GpuAmount plus(GpuAmount other) {
    if (other.hundredths == 0) {
      return this;
    }
    return hundredths == 0 ? other : ofHundredths(Math.addExact(hundredths, other.hundredths));
  }

  public GpuAmount minus(GpuAmount other) {
    return other.hundredths == 0
        ? this
        : ofHundredths(Math.subtractExact(hundredths, other.hundredths));
  }

  /** This amount on each of {@code devices} devices: a portion × the devices that hold it. */
  public GpuAmount times(int devices) {
    return ofHundredths(Math.multiplyExact(hundredths, devices));
  }

  public GpuAmount min(GpuAmount other) {
    return compareTo(other) <= 0 ? this : other;
  }

  public GpuAmount max(GpuAmount other) {
    return compareTo(other) >= 0 ? this : other;
  }

  @Override
  public int compareTo(GpuAmount other) {
    return Long.compare(hundredths, other.hundredths);
  }

  public boolean isZero() {
    return hundredths == 0;
  }

  public boolean isPositive() {
    return hundredths > 0;
  }

  /** Whole devices in this amount, rounded down (floor, also for negative amounts). */
  public long wholeDevices() {
    return Math.floorDiv(hundredths, HUNDREDTHS_PER_DEVICE);
  }

  /** Whether this is a whole number of devices (no portion of one). */
  public boolean isWholeDevices() {
    return hundredths % HUNDREDTHS_PER_DEVICE == 0;
  }

  /** Whole devices needed to hold this amount, rounded up. */
  public long wholeDevicesRoundedUp() {
    return -Math.floorDiv(-hundredths, HUNDREDTHS_PER_DEVICE);
  }

  /**
   * The amount in devices as the nearest double, for reports and for fair-share arithmetic: 51
   * hundredths is the double closest to 0.51, which prints as {@code 0.51}.
   */
  public double toDouble() {
    return toDevices(hundredths);
  }

  /** {@link #toDouble()} of an amount of {@code hundredths}, for sums kept as a count. */
  public static double toDevices(long hundredths) {
    return hundredths / (double) HUNDREDTHS_PER_DEVICE;
  }

  /** Devices as a plain decimal without trailing zeros: {@code 0.51}, {@code 2}. */
  @Override
  public String toString() {
    return BigDecimal.valueOf(hundredths, 2).stripTrailingZeros().toPlainString();
  }
}
