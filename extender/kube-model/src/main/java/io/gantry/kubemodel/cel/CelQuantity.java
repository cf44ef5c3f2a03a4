package io.gantry.kubemodel.cel;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.Quantity;
import java.math.BigDecimal;

/** A Kubernetes quantity as the CEL quantity library's {@code Quantity} type sees it. */
record CelQuantity(BigDecimal value) implements Comparable<CelQuantity> {
  CelQuantity {
    requireNonNull(value, "value is null");
  }

  static CelQuantity parse(String text) {
    return new CelQuantity(Quantity.parse(text));
  }

  static boolean isValid(String text) {
    try {
      Quantity.parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  boolean isInteger() {
    return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
  }

  long asInteger() {
    if (!isInteger()) {
      throw new IllegalArgumentException(
          "quantity " + value.toPlainString() + " is not an integer");
    }
    return value.longValueExact();
  }

  CelQuantity plus(BigDecimal other) {
    return new CelQuantity(value.add(other));
  }

  @Override
  public int compareTo(CelQuantity o) {
    return value.compareTo(o.value);
  }
}
