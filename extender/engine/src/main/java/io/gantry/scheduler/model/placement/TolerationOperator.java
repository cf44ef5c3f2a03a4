package io.gantry.scheduler.model.placement;

import static java.util.Objects.requireNonNull;

/** How a toleration compares its value with a taint's value. */
public enum TolerationOperator {
  EQUAL("Equal"),
  EXISTS("Exists");

  private final String k8sName;

  TolerationOperator(String k8sName) {
    this.k8sName = k8sName;
  }

  /** The Kubernetes spelling, e.g. {@code Exists}. */
  public String k8sName() {
    return k8sName;
  }

  /**
   * Parses the Kubernetes spelling. The empty string parses as {@link #EQUAL} because the
   * Kubernetes API leaves the field undefaulted and treats empty as Equal when matching.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static TolerationOperator parse(String k8sName) {
    requireNonNull(k8sName, "k8sName is null");
    if (k8sName.isEmpty()) {
      return EQUAL;
    }
    for (TolerationOperator operator : values()) {
      if (operator.k8sName.equals(k8sName)) {
        return operator;
      }
    }
    throw new IllegalArgumentException(
        "toleration operator must be one of Equal, Exists but was: '" + k8sName + "'");
  }
}
