package io.gantry.scheduler.sim.spec;

/** How a node exposes its GPUs; {@code MIXED} offers them only as the MIG instances in extended. */
public enum MigStrategy {
  NONE("none"),
  SINGLE("single"),
  MIXED("mixed");

  private final String yamlName;

  MigStrategy(String yamlName) {
    this.yamlName = yamlName;
  }

  public String yamlName() {
    return yamlName;
  }
}
