package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A named edit that makes a scenario's text bad, and the error the scenario must then give: one
 * case of the table-driven bad-input tests that start from a good scenario.
 */
record ScenarioEdit(String name, String from, String to, String message) {
  @Override
  public String toString() {
    return name;
  }

  /** The scenario with {@code from} replaced; fails the test when the scenario lacks it. */
  String applyTo(String scenario) {
    assertThat(scenario).contains(from);
    return scenario.replace(from, to);
  }
}
