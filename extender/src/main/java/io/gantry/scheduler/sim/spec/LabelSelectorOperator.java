package io.gantry.scheduler.sim.spec;

public enum LabelSelectorOperator {
  IN("In"),
  NOT_IN("NotIn"),
  EXISTS("Exists"),
  DOES_NOT_EXIST("DoesNotExist");

  private final String yamlName;

  LabelSelectorOperator(String yamlName) {
    this.yamlName = yamlName;
  }

  public String yamlName() {
    return yamlName;
  }
}
