package io.gantry.scheduler.api.result;

import java.util.Locale;

/** What became of one scenario a victim-search generator emitted (KAI's {@code state} label). */
public enum ScenarioState {
  EMITTED,
  SIMULATED,
  REJECTED,
  SKIPPED;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
