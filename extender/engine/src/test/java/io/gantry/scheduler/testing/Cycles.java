package io.gantry.scheduler.testing;

import com.google.common.base.Ticker;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.actions.ActionRegistry;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.PluginRegistry;
import java.util.List;
import java.util.Map;

/** Runs whole cycles through the engine's entry point with a ticker that stands still. */
public final class Cycles {
  private Cycles() {}

  /** One cycle of {@code actions} with KAI's default plugins and eviction settings. */
  public static CycleResult run(ClusterSnapshot snapshot, String... actions) {
    return run(snapshot, EvictionSettings.DEFAULTS, Map.of(), actions);
  }

  public static CycleResult run(
      ClusterSnapshot snapshot,
      EvictionSettings evictions,
      Map<String, PluginSetting> plugins,
      String... actions) {
    return run(snapshot, evictions, plugins, Placement.DEFAULTS, actions);
  }

  public static CycleResult run(
      ClusterSnapshot snapshot,
      EvictionSettings evictions,
      Map<String, PluginSetting> plugins,
      Placement placement,
      String... actions) {
    SchedulerConfig config =
        new SchedulerConfig(
            ImmutableList.copyOf(actions),
            ImmutableSortedMap.copyOf(plugins),
            placement,
            evictions);
    return new SchedulerWiring(new ActionRegistry(), new PluginRegistry(), new FakeTicker())
        .cycle(config)
        .run(snapshot);
  }

  /**
   * One cycle of {@code actions} with KAI's defaults under {@code strategy}, the search budgets
   * read from {@code ticker}.
   */
  public static CycleResult run(
      ClusterSnapshot snapshot, SearchStrategy strategy, Ticker ticker, String... actions) {
    SchedulerConfig config =
        new SchedulerConfig(
            ImmutableList.copyOf(actions),
            ImmutableSortedMap.of(),
            Placement.DEFAULTS,
            EvictionSettings.DEFAULTS);
    return new SchedulerWiring(new ActionRegistry(), new PluginRegistry(), ticker)
        .cycle(config, strategy)
        .run(snapshot);
  }

  /** The ids of the tasks the cycle evicted, in commit order. */
  public static List<String> evicted(CycleResult result) {
    return result.decisions().stream()
        .filter(d -> d.kind() == Decision.Kind.EVICT)
        .map(Decision::taskId)
        .toList();
  }

  public static List<EvictDecision> evictions(CycleResult result) {
    return result.decisions().stream()
        .filter(d -> d.kind() == Decision.Kind.EVICT)
        .map(EvictDecision.class::cast)
        .toList();
  }

  /** The status the cycle left the task in. */
  public static TaskStatus status(CycleResult result, String taskId) {
    for (JobOutcome j : result.jobs()) {
      for (TaskOutcome t : j.tasks()) {
        if (t.taskId().equals(taskId)) {
          return t.status();
        }
      }
    }
    throw new IllegalArgumentException("no task " + taskId);
  }

  public static JobOutcome job(CycleResult result, String jobId) {
    return result.jobs().stream().filter(j -> j.jobId().equals(jobId)).findFirst().orElseThrow();
  }

  public static List<CycleEvent> events(CycleResult result, String reason) {
    return result.events().stream().filter(e -> e.reason().equals(reason)).toList();
  }
}
