package io.gantry.scheduler.kube.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.sim.ScenarioStart;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With the namespace {@code kai}, the scheduler exports every metric of KAI's table in
 * docs/observability.md (copied from KAI's) under exactly KAI's name, with KAI's type. The cycles
 * that feed it are real: the reclaim and preempt examples, run by the engine with the scheduler's
 * listener.
 */
class KaiMetricsTest {
  private static final Path REPO = Path.of("..", "..");
  private static final Pattern ROW =
      Pattern.compile("^\\| `([a-z0-9_]+)` \\| (gauge|counter|histogram) \\|");

  private final SchedulerMetrics metrics = new SchedulerMetrics("kai", "pool-a");

  @AfterEach
  void close() {
    metrics.close();
  }

  /** KAI's names and types, from the KAI table of docs/observability.md. */
  private static Map<String, String> kaiTable() throws IOException {
    String doc = Files.readString(REPO.resolve("docs/observability.md"));
    String table =
        doc.substring(doc.indexOf("### KAI's metrics"), doc.indexOf("### Gantry's own metrics"));
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : table.lines().toList()) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        out.put(m.group(1), m.group(2));
      }
    }
    return out;
  }

  private CycleResult runCycle(String example) throws Exception {
    ScenarioStart start =
        ScenarioStart.of(ScenarioLoader.load(REPO.resolve("examples").resolve(example)));
    metrics.configured(start.config());
    CycleResult result =
        new SchedulerWiring(new CelDeviceSelectors())
            .cycle(start.config())
            .run(start.snapshot(), metrics.cycleMeters());
    metrics.cycle(
        result,
        new LiveSnapshot(
            start.snapshot(),
            ImmutableMap.of(),
            ImmutableMap.of(),
            ImmutableList.of(),
            ImmutableList.of()),
        12.5);
    return result;
  }

  @Test
  void everyNameOfKaisTableIsExportedWithKaisType() throws Exception {
    runCycle("reclaim.yaml");
    runCycle("preempt.yaml");
    metrics.usageQuery(3);
    String scrape = metrics.scrape();

    Map<String, String> table = kaiTable();
    assertThat(table).hasSize(KaiMetricNames.ALL.size());
    assertThat(table.keySet()).containsExactlyInAnyOrderElementsOf(KaiMetricNames.ALL);
    for (Map.Entry<String, String> e : table.entrySet()) {
      assertThat(scrape)
          .as("kai_%s exported as a %s", e.getKey(), e.getValue())
          .contains("# TYPE kai_" + e.getKey() + " " + e.getValue() + "\n");
    }
    // KAI's counters without _total keep their name, in samples too
    assertThat(scrape)
        .contains("kai_podgroups_acted_on_by_action{action=\"allocate\"} ")
        .doesNotContain("kai_podgroups_acted_on_by_action_total")
        .doesNotContain("kai_total_preemption_attempts_total")
        .contains("kai_queue_info{queue_display_name=\"team-a\"");
  }

  @Test
  void theCountersCountWhatTheCycleDid() throws Exception {
    CycleResult reclaim = runCycle("reclaim.yaml");
    long evictions =
        reclaim.decisions().stream().filter(d -> d.kind() == Decision.Kind.EVICT).count();
    assertThat(evictions).isPositive();

    String scrape = metrics.scrape();
    assertThat(value(scrape, "kai_evictions_total{action=\"reclaim\"}")).isEqualTo(evictions);
    assertThat(sum(scrape, "kai_pod_group_evicted_pods_total{")).isEqualTo(evictions);
    assertThat(scrape).contains("nodepool=\"pool-a\"");
    assertThat(value(scrape, "kai_podgroups_scheduled_by_action{action=\"reclaim\"}")).isEqualTo(1);
    assertThat(
            value(
                scrape,
                "kai_scenario_search_jobs_total{action=\"reclaim\",reduced_budget=\"false\",result=\"solved\"}"))
        .isEqualTo(1);
    assertThat(value(scrape, "kai_e2e_scheduling_latency_milliseconds")).isEqualTo(12.5);
    assertThat(value(scrape, "kai_scenario_search_job_budget_configured_seconds")).isEqualTo(240);
  }

  @Test
  void theDefaultNamespaceIsGantry() {
    try (SchedulerMetrics gantry = new SchedulerMetrics()) {
      assertThat(gantry.scrape())
          .contains("# TYPE gantry_task_bind_latency_milliseconds histogram")
          .contains("jvm_memory_used_bytes")
          .contains("process_cpu_usage")
          .doesNotContain("kai_");
    }
  }

  private static double value(String scrape, String series) {
    for (String line : scrape.lines().toList()) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    throw new AssertionError("no sample " + series + " in\n" + scrape);
  }

  private static double sum(String scrape, String prefix) {
    List<String> lines = scrape.lines().filter(l -> l.startsWith(prefix)).toList();
    assertThat(lines).isNotEmpty();
    return lines.stream()
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
