package io.gantry.scheduler.api.result.explain;

import io.gantry.scheduler.model.ResourceKind;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Engine amounts for people: GPUs in devices, CPU in cores, memory in GB (10^9 bytes), with at most
 * three decimals; -1 (a quota or limit) reads {@code unlimited}.
 */
public final class Amounts {
  private Amounts() {}

  /** {@code value} of {@code kind} with its unit, e.g. {@code 2 GPUs}, {@code 0.5 cores}. */
  public static String format(ResourceKind kind, double value) {
    if (value == -1) {
      return "unlimited";
    }
    return number(kind, value) + " " + unit(kind);
  }

  /** {@code value} of {@code kind} in its display unit, without the unit. */
  public static String number(ResourceKind kind, double value) {
    if (value == -1) {
      return "unlimited";
    }
    double scaled =
        switch (kind) {
          case GPU -> value;
          case CPU -> value / 1000;
          case MEMORY -> value / 1e9;
        };
    return BigDecimal.valueOf(scaled)
        .setScale(3, RoundingMode.HALF_UP)
        .stripTrailingZeros()
        .toPlainString();
  }

  /** The display unit: {@code GPUs}, {@code cores}, {@code GB}. */
  public static String unit(ResourceKind kind) {
    return switch (kind) {
      case GPU -> "GPUs";
      case CPU -> "cores";
      case MEMORY -> "GB";
    };
  }
}
