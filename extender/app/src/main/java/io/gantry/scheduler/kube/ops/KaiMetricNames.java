package io.gantry.scheduler.kube.ops;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * KAI's scheduler and queue metric names (kai-observability.md), without the namespace, and the one
 * fix-up the exposition needs to serve them exactly: Micrometer's Prometheus registry ends every
 * counter's name in {@code _total}, while KAI's Go client exports a counter under the name it was
 * given, so five of KAI's counters have no {@code _total}.
 */
public final class KaiMetricNames {
  /**
   * KAI's names the Prometheus registry serves otherwise, and how it serves them: it ends every
   * counter's name in {@code _total}, and drops a gauge's {@code _info} suffix. KAI's Go client
   * serves a metric under the name it was given.
   */
  static final ImmutableSortedMap<String, String> SERVED_AS =
      ImmutableSortedMap.of(
          "podgroups_scheduled_by_action", "podgroups_scheduled_by_action_total",
          "podgroups_acted_on_by_action", "podgroups_acted_on_by_action_total",
          "scenarios_simulation_by_action", "scenarios_simulation_by_action_total",
          "scenarios_filtered_by_action", "scenarios_filtered_by_action_total",
          "total_preemption_attempts", "total_preemption_attempts_total",
          "queue_info", "queue");

  /** Every name KAI's scheduler and queue controller export, in kai-observability.md's order. */
  public static final ImmutableList<String> ALL =
      ImmutableList.of(
          "queue_info",
          "queue_deserved_gpus",
          "queue_quota_cpu_cores",
          "queue_quota_memory_bytes",
          "queue_allocated_gpus",
          "queue_allocated_cpu_cores",
          "queue_allocated_memory_bytes",
          "e2e_scheduling_latency_milliseconds",
          "open_session_latency_milliseconds",
          "close_session_latency_milliseconds",
          "plugin_scheduling_latency_milliseconds",
          "action_scheduling_latency_milliseconds",
          "task_scheduling_latency_milliseconds",
          "task_bind_latency_milliseconds",
          "usage_query_latency_milliseconds",
          "podgroups_scheduled_by_action",
          "podgroups_acted_on_by_action",
          "scenarios_simulation_by_action",
          "scenarios_filtered_by_action",
          "total_preemption_attempts",
          "pod_group_evicted_pods_total",
          "scenario_search_jobs_total",
          "scenario_search_action_budget_configured_seconds",
          "scenario_search_job_budget_configured_seconds",
          "scenario_search_generator_budget_configured_seconds",
          "scenario_search_action_budget_exhausted_total",
          "scenario_search_duration_seconds",
          "scenario_search_scenarios_total",
          "queue_fair_share_cpu_cores",
          "queue_fair_share_memory_gb",
          "queue_fair_share_gpu",
          "queue_cpu_usage",
          "queue_memory_usage",
          "queue_gpu_usage");

  private KaiMetricNames() {}

  /**
   * The exposition with each name of {@link #SERVED_AS} written as KAI writes it, in samples and in
   * their HELP and TYPE lines.
   */
  static String restoreKaiNames(String exposition, String prefix) {
    String out = exposition;
    for (var e : SERVED_AS.entrySet()) {
      Pattern served =
          Pattern.compile(
              "(?m)(^|^# (?:HELP|TYPE) )" + Pattern.quote(prefix + e.getValue()) + "(?=[ {])");
      out = served.matcher(out).replaceAll("$1" + Matcher.quoteReplacement(prefix + e.getKey()));
    }
    return out;
  }
}
