package io.gantry.scheduler.sim.spec;

public enum Preemptibility {
  PREEMPTIBLE("preemptible"),
  NON_PREEMPTIBLE("non-preemptible");

  private final String yamlName;

  Preemptibility(String yamlName) {
    this.yamlName = yamlName;
  }

  public String yamlName() {
    return yamlName;
  }
}
