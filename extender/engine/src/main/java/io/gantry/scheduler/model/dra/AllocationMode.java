package io.gantry.scheduler.model.dra;

/** How a request counts devices (resource.k8s.io/v1 {@code allocationMode}). */
public enum AllocationMode {
  /** Exactly {@code count} devices. */
  EXACT_COUNT("ExactCount"),
  /** Every matching device the node reaches, at least one, none of them allocated elsewhere. */
  ALL("All");

  private final String k8sName;

  AllocationMode(String k8sName) {
    this.k8sName = k8sName;
  }

  public String k8sName() {
    return k8sName;
  }

  /** The mode by its manifest spelling; throws naming the accepted values. */
  public static AllocationMode parse(String text) {
    for (AllocationMode m : values()) {
      if (m.k8sName.equals(text)) {
        return m;
      }
    }
    throw new IllegalArgumentException("expected ExactCount or All, got \"" + text + "\"");
  }
}
