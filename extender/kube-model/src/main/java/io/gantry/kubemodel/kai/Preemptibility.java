package io.gantry.kubemodel.kai;

import java.util.Arrays;
import java.util.Optional;

/**
 * A PodGroup's {@code preemptibility} (label {@code kai.scheduler/preemptibility}). Unset, a job is
 * preemptible exactly when its priority is below {@value #PREEMPTIBLE_BELOW} (kai-reference §3.2);
 * set, it decides alone.
 */
public enum Preemptibility {
  PREEMPTIBLE("preemptible"),
  NON_PREEMPTIBLE("non-preemptible");

  public static final int PREEMPTIBLE_BELOW = 100;

  private final String k8sName;

  Preemptibility(String k8sName) {
    this.k8sName = k8sName;
  }

  public String k8sName() {
    return k8sName;
  }

  /** The label or field value; an invalid value is ignored, as KAI ignores it. */
  public static Optional<Preemptibility> parse(String value) {
    return Arrays.stream(values()).filter(p -> p.k8sName.equals(value)).findFirst();
  }

  public static boolean isPreemptible(Optional<Preemptibility> explicit, int priority) {
    return explicit.map(p -> p == PREEMPTIBLE).orElse(priority < PREEMPTIBLE_BELOW);
  }
}
