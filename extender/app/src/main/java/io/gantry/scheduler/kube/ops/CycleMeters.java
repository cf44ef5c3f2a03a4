package io.gantry.scheduler.kube.ops;

import io.gantry.scheduler.api.result.ScenarioState;
import io.gantry.scheduler.cycle.CycleListener;
import io.micrometer.core.instrument.Tags;

/**
 * One cycle's listener: times the session's open (and each plugin's open hook), each action and the
 * session's close into KAI's latency gauges, and counts what the actions try into KAI's per-action
 * counters. Made just before the cycle runs ({@link SchedulerMetrics#cycleMeters}), used on the
 * cycle's thread only.
 */
public final class CycleMeters implements CycleListener {
  private static final String ON_SESSION_OPEN = "OnSessionOpen";

  private final SchedulerMetrics metrics;
  private final long startNanos = System.nanoTime();
  private long pluginStartNanos;
  private long actionStartNanos;
  private long lastPhaseEndNanos = startNanos;

  CycleMeters(SchedulerMetrics metrics) {
    this.metrics = metrics;
  }

  private static double millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1e6;
  }

  @Override
  public void pluginOpenStarted(String plugin) {
    pluginStartNanos = System.nanoTime();
  }

  @Override
  public void pluginOpenFinished(String plugin) {
    metrics.set(
        "plugin_scheduling_latency_milliseconds",
        Tags.of("plugin", plugin, "OnSession", ON_SESSION_OPEN),
        millisSince(pluginStartNanos));
  }

  @Override
  public void sessionOpened() {
    metrics.set("open_session_latency_milliseconds", Tags.empty(), millisSince(startNanos));
    lastPhaseEndNanos = System.nanoTime();
  }

  @Override
  public void actionStarted(String action) {
    actionStartNanos = System.nanoTime();
  }

  @Override
  public void actionFinished(String action) {
    metrics.set(
        "action_scheduling_latency_milliseconds",
        Tags.of("action", action),
        millisSince(actionStartNanos));
    lastPhaseEndNanos = System.nanoTime();
  }

  @Override
  public void sessionClosed() {
    metrics.set("close_session_latency_milliseconds", Tags.empty(), millisSince(lastPhaseEndNanos));
  }

  @Override
  public void jobAttempted(String action, String jobId) {
    metrics.counter("podgroups_acted_on_by_action", Tags.of("action", action)).increment();
    if (action.equals("preempt")) {
      metrics.counter("total_preemption_attempts", Tags.empty()).increment();
    }
  }

  @Override
  public void jobPlaced(String action, String jobId) {
    metrics.counter("podgroups_scheduled_by_action", Tags.of("action", action)).increment();
  }

  @Override
  public void scenarioFiltered(String action) {
    metrics.counter("scenarios_filtered_by_action", Tags.of("action", action)).increment();
  }

  @Override
  public void scenario(String action, String generator, ScenarioState state) {
    metrics
        .counter(
            "scenario_search_scenarios_total",
            Tags.of("action", action, "generator", generator, "state", state.label()))
        .increment();
    if (state == ScenarioState.SIMULATED) {
      metrics.counter("scenarios_simulation_by_action", Tags.of("action", action)).increment();
    }
  }

  @Override
  public void generatorSearched(String action, String generator, String result, long nanos) {
    metrics.searchDuration(action, generator, result, nanos);
  }

  @Override
  public void jobSearched(String action, String result, boolean reducedBudget) {
    metrics
        .counter(
            "scenario_search_jobs_total",
            Tags.of(
                "action",
                action,
                "result",
                result,
                "reduced_budget",
                Boolean.toString(reducedBudget)))
        .increment();
  }

  @Override
  public void actionBudgetExhausted(String action) {
    metrics
        .counter("scenario_search_action_budget_exhausted_total", Tags.of("action", action))
        .increment();
  }
}
