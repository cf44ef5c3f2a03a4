package io.gantry.scheduler.framework;

/**
 * Checks a simulated eviction scenario before it may be committed (KAI's reclaim and preempt
 * scenario validators). Every plugin must accept the scenario.
 *
 * <p>{@link #onJobSolutionStart} is called once per preemptor, before any of its scenarios is
 * simulated, so a plugin can capture the state its checks compare against (KAI's queue state
 * "captured at job-solution start"); {@link #validScenario} then runs after each successful
 * simulation, with the victims' placements as the simulation left them.
 */
public interface ScenarioValidator extends Plugin {
  void onJobSolutionStart(ActionType action, JobState preemptor);

  boolean validScenario(ActionType action, EvictionScenario scenario);
}
