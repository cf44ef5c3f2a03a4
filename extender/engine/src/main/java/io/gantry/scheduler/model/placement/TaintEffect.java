package io.gantry.scheduler.model.placement;

import static java.util.Objects.requireNonNull;

/**
 * The effect of a node taint, spelled in the model as Java constants and on the wire as in
 * Kubernetes.
 */
public enum TaintEffect {
  NO_SCHEDULE("NoSchedule"),
  PREFER_NO_SCHEDULE("PreferNoSchedule"),
  NO_EXECUTE("NoExecute");

  private final String k8sName;

  TaintEffect(String k8sName) {
    this.k8sName = k8sName;
  }

  /** The Kubernetes spelling, e.g. {@code NoSchedule}. */
  public String k8sName() {
    return k8sName;
  }

  /**
   * Parses the Kubernetes spelling. The empty string is rejected: on a toleration it means "every
   * effect", which the model spells as {@code Optional.empty()}.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static TaintEffect parse(String k8sName) {
    requireNonNull(k8sName, "k8sName is null");
    for (TaintEffect effect : values()) {
      if (effect.k8sName.equals(k8sName)) {
        return effect;
      }
    }
    throw new IllegalArgumentException(
        "taint effect must be one of NoSchedule, PreferNoSchedule, NoExecute but was: '"
            + k8sName
            + "'");
  }
}
