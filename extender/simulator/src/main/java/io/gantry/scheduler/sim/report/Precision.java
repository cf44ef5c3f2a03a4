package io.gantry.scheduler.sim.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How a number is printed in reports. Every report and mismatch message goes through here so that
 * {@code 4} prints as {@code 4} everywhere, never as {@code 4.0}, and a value rounds the same way
 * in JSON, in text and in {@code --check} output.
 */
enum Precision {
  /** GPU devices and fractions: two decimals, because portions are hundredths in practice. */
  GPU(2),
  /** Millicores and bytes: whole units, since fractions of either mean nothing to a reader. */
  WHOLE(0),
  /** A value as the user wrote it (expected values), not rounded at all. */
  EXACT(-1);

  private final int decimals;

  Precision(int decimals) {
    this.decimals = decimals;
  }

  /**
   * The value rounded half-up, trailing zeros removed, so its scale is 0 or less exactly when it is
   * integral.
   *
   * @throws IllegalArgumentException for NaN or an infinity, which no report can represent
   */
  BigDecimal decimal(double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("not a finite number: " + value);
    }
    // valueOf goes through Double.toString, so 0.51 stays 0.51 rather than its binary expansion.
    BigDecimal exact = BigDecimal.valueOf(value);
    BigDecimal rounded = decimals < 0 ? exact : exact.setScale(decimals, RoundingMode.HALF_UP);
    return rounded.stripTrailingZeros();
  }

  /** The value as text: plain digits, never an exponent; NaN and infinities as Java spells them. */
  String format(double value) {
    return Double.isFinite(value) ? plain(decimal(value)) : Double.toString(value);
  }

  static String plain(BigDecimal value) {
    return value.toPlainString();
  }
}
