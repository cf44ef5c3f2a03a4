package io.gantry.scheduler.framework;

import io.gantry.scheduler.api.result.ScenarioState;

/**
 * Hears what the actions try, so a caller can count it (KAI's {@code podgroups_*_by_action} and
 * {@code scenario_search_*} metrics) without the engine knowing about metrics. The cycle publishes
 * it in the session's {@link CycleState}; actions read it with {@link #of}. Called on the thread
 * running the cycle; an observer must not throw, and what it does takes from the cycle's time.
 * Action names are KAI's ({@code allocate}, {@code reclaim}, ...).
 */
public interface ActionObserver {
  /** Hears nothing. */
  ActionObserver NONE = new ActionObserver() {};

  StateKey<ActionObserver> KEY = new StateKey<>("actionObserver", ActionObserver.class);

  /** The session's observer, {@link #NONE} when the cycle was run without one. */
  static ActionObserver of(Session session) {
    return session.state().read(KEY).orElse(NONE);
  }

  /** The plugin named {@code plugin} is about to run its session-open hook. */
  default void pluginOpenStarted(String plugin) {}

  /** The plugin named {@code plugin} has run its session-open hook. */
  default void pluginOpenFinished(String plugin) {}

  /** {@code action} tries to place the job (PodGroup {@code jobId}). */
  default void jobAttempted(String action, String jobId) {}

  /** {@code action} placed (some tasks of) the job, committed. */
  default void jobPlaced(String action, String jobId) {}

  /** The accumulated scenario filters rejected a victim set before any generator saw it. */
  default void scenarioFiltered(String action) {}

  /** A scenario of {@code generator} reached {@code state}. */
  default void scenario(String action, String generator, ScenarioState state) {}

  /**
   * One generator's search for one job ended with {@code result} ({@code solved}, {@code
   * exhausted}, {@code deadline}) after {@code nanos}.
   */
  default void generatorSearched(String action, String generator, String result, long nanos) {}

  /**
   * One job's victim search ended with {@code result} (KAI's search result, lower case); {@code
   * reducedBudget} when the action had less time left than the per-job limit.
   */
  default void jobSearched(String action, String result, boolean reducedBudget) {}

  /** The action's search budget ran out: the jobs left are not attempted this cycle. */
  default void actionBudgetExhausted(String action) {}
}
