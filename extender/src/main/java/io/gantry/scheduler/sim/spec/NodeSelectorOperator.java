package io.gantry.scheduler.sim.spec;

public enum NodeSelectorOperator {
  IN("In"),
  NOT_IN("NotIn"),
  EXISTS("Exists"),
  DOES_NOT_EXIST("DoesNotExist"),
  GT("Gt"),
  LT("Lt");

  private final String yamlName;

  NodeSelectorOperator(String yamlName) {
    this.yamlName = yamlName;
  }

  public String yamlName() {
    return yamlName;
  }
}
