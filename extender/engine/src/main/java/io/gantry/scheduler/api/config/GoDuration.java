package io.gantry.scheduler.api.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Durations written the way Go's {@code time.ParseDuration} reads them ({@code 90s}, {@code 1h30m},
 * {@code 1.5h}, {@code 500ms}, {@code -10m}), since the scenario format mirrors KAI's
 * configuration, which is written in Go.
 */
public final class GoDuration {
  private static final long NANOS_PER_MICRO = 1_000L;
  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private GoDuration() {}

  /** Parses a duration, throwing {@link IllegalArgumentException} with a readable reason. */
  public static Duration parse(String text) {
    String rest = text;
    boolean negative = false;
    if (rest.startsWith("-") || rest.startsWith("+")) {
      negative = rest.startsWith("-");
      rest = rest.substring(1);
    }
    if (rest.equals("0")) {
      return Duration.ZERO;
    }
    if (rest.isEmpty()) {
      throw invalid(text, "");
    }
    BigDecimal nanos = BigDecimal.ZERO;
    int i = 0;
    while (i < rest.length()) {
      int numberStart = i;
      while (i < rest.length() && (Character.isDigit(rest.charAt(i)) || rest.charAt(i) == '.')) {
        i++;
      }
      String number = rest.substring(numberStart, i);
      int unitStart = i;
      while (i < rest.length() && !Character.isDigit(rest.charAt(i)) && rest.charAt(i) != '.') {
        i++;
      }
      String unit = rest.substring(unitStart, i);
      nanos = nanos.add(number(text, number).multiply(BigDecimal.valueOf(unitNanos(text, unit))));
    }
    if (negative) {
      nanos = nanos.negate();
    }
    try {
      // Like Go, digits finer than a nanosecond are dropped.
      return Duration.ofNanos(nanos.setScale(0, RoundingMode.DOWN).longValueExact());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("duration out of range: \"" + text + "\"", e);
    }
  }

  /**
   * The duration as Go's {@code time.Duration.String()} writes it: {@code 0s}, {@code 1.5s}, {@code
   * 5m0s}, {@code 1h0m0s}, {@code 500ms}, {@code -10m0s}; KAI prints durations this way.
   */
  public static String format(Duration duration) {
    long nanos = duration.toNanos();
    if (nanos == 0) {
      return "0s";
    }
    boolean negative = nanos < 0;
    BigDecimal abs = BigDecimal.valueOf(nanos).abs();
    StringBuilder out = new StringBuilder(negative ? "-" : "");
    if (abs.compareTo(BigDecimal.valueOf(NANOS_PER_SECOND)) < 0) {
      long n = abs.longValueExact();
      if (n < NANOS_PER_MICRO) {
        return out.append(n).append("ns").toString();
      }
      if (n < NANOS_PER_MILLI) {
        return out.append(decimal(n, NANOS_PER_MICRO)).append("\u00b5s").toString();
      }
      return out.append(decimal(n, NANOS_PER_MILLI)).append("ms").toString();
    }
    long n = abs.longValueExact();
    long hours = n / (3600 * NANOS_PER_SECOND);
    long minutes = (n / (60 * NANOS_PER_SECOND)) % 60;
    long secondNanos = n % (60 * NANOS_PER_SECOND);
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      out.append(minutes).append('m');
    }
    return out.append(decimal(secondNanos, NANOS_PER_SECOND)).append('s').toString();
  }

  private static String decimal(long value, long unit) {
    BigDecimal d = BigDecimal.valueOf(value).divide(BigDecimal.valueOf(unit)).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
  }

  private static BigDecimal number(String text, String number) {
    if (number.isEmpty() || number.equals(".") || number.indexOf('.') != number.lastIndexOf('.')) {
      throw invalid(text, "");
    }
    return new BigDecimal(number.startsWith(".") ? "0" + number : number);
  }

  private static long unitNanos(String text, String unit) {
    switch (unit) {
      case "ns":
        return 1;
      case "us":
      case "\u00b5s":
      case "\u03bcs":
        return NANOS_PER_MICRO;
      case "ms":
        return NANOS_PER_MILLI;
      case "s":
        return NANOS_PER_SECOND;
      case "m":
        return 60 * NANOS_PER_SECOND;
      case "h":
        return 3600 * NANOS_PER_SECOND;
      case "":
        throw invalid(text, " (missing unit)");
      default:
        throw invalid(text, " (unknown unit \"" + unit + "\")");
    }
  }

  private static IllegalArgumentException invalid(String text, String reason) {
    return new IllegalArgumentException(
        "expected a duration such as 90s, 10m or 1h30m, got \"" + text + "\"" + reason);
  }
}
