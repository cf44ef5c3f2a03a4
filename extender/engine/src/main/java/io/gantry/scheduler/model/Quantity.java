package io.gantry.scheduler.model;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 8}, {@code 64Gi}, {@code 80G}, {@code 1e3}).
 *
 * <p>Values are exact decimals: a request is converted to millicores, bytes or a count only when
 * the result is a whole number, so a typo such as {@code 0.0001} CPU is reported instead of being
 * rounded to a different request.
 */
public final class Quantity {
  // The exponent alternative comes before the bare E (exa) suffix so that 1E3 reads as 1000.
  private static final Pattern SYNTAX =
      Pattern.compile(
          "([+-]?)(\\d+(?:\\.\\d*)?|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?\\d{1,3}|[numkMGTPE])?");

  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private Quantity() {}

  /** Parses a quantity, throwing {@link IllegalArgumentException} with a readable reason. */
  public static BigDecimal parse(String text) {
    Matcher m = SYNTAX.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "expected a quantity such as 500m, 8 or 64Gi, got \"" + text + "\"");
    }
    BigDecimal number = new BigDecimal(m.group(2));
    if (m.group(1).equals("-")) {
      number = number.negate();
    }
    String suffix = m.group(3);
    return suffix == null ? number : number.multiply(multiplier(suffix));
  }

  /** The value in thousandths (CPU cores to millicores). */
  public static long toMillis(BigDecimal value) {
    BigDecimal millis = value.multiply(THOUSAND);
    if (!isWhole(millis)) {
      throw new IllegalArgumentException(
          "must be a whole number of millicores, got "
              + value.stripTrailingZeros().toPlainString());
    }
    return exactLong(millis, value);
  }

  /** The value as a whole number (bytes, devices, any extended resource). */
  public static long toWhole(BigDecimal value) {
    if (!isWhole(value)) {
      throw new IllegalArgumentException(
          "must be a whole number, got " + value.stripTrailingZeros().toPlainString());
    }
    return exactLong(value, value);
  }

  private static boolean isWhole(BigDecimal value) {
    return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
  }

  private static long exactLong(BigDecimal whole, BigDecimal original) {
    try {
      return whole.longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "is too large, got " + original.stripTrailingZeros().toPlainString(), e);
    }
  }

  private static BigDecimal multiplier(String suffix) {
    switch (suffix) {
      case "Ki":
        return BigDecimal.valueOf(2).pow(10);
      case "Mi":
        return BigDecimal.valueOf(2).pow(20);
      case "Gi":
        return BigDecimal.valueOf(2).pow(30);
      case "Ti":
        return BigDecimal.valueOf(2).pow(40);
      case "Pi":
        return BigDecimal.valueOf(2).pow(50);
      case "Ei":
        return BigDecimal.valueOf(2).pow(60);
      case "n":
        return BigDecimal.ONE.scaleByPowerOfTen(-9);
      case "u":
        return BigDecimal.ONE.scaleByPowerOfTen(-6);
      case "m":
        return BigDecimal.ONE.scaleByPowerOfTen(-3);
      case "k":
        return BigDecimal.ONE.scaleByPowerOfTen(3);
      case "M":
        return BigDecimal.ONE.scaleByPowerOfTen(6);
      case "G":
        return BigDecimal.ONE.scaleByPowerOfTen(9);
      case "T":
        return BigDecimal.ONE.scaleByPowerOfTen(12);
      case "P":
        return BigDecimal.ONE.scaleByPowerOfTen(15);
      case "E":
        return BigDecimal.ONE.scaleByPowerOfTen(18);
      default:
        // Only the exponent form is left; SYNTAX bounds it to three digits.
        return BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
    }
  }
}
