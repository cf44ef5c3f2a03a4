package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.deviceagent.metrics.DeviceAgentMetrics;
import io.gantry.deviceagent.metrics.GpuMetrics;
import io.gantry.deviceagent.metrics.OverGrantMetrics;
import io.gantry.dradriver.metrics.DraDriverMetrics;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.nodecommon.nvml.XidError;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.kube.ops.SchedulerMetrics;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.sim.ScenarioStart;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every PromQL expression of the chart's Grafana dashboards names only metrics Gantry registers:
 * the names of the samples a scheduler serves after a reclaim cycle, under the namespace the
 * dashboards are rendered with, and those the device agent and the DRA driver serve once each of
 * their meters has a value (their names take no namespace).
 */
class DashboardMetricsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern METRIC = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Set<String> PROMQL_WORDS =
      Set.of(
          "sum",
          "by",
          "rate",
          "increase",
          "count",
          "histogram_quantile",
          "le",
          "topk",
          "without",
          "on");

  /**
   * The names of the samples the scheduler serves after a reclaim cycle and one that leaves a gang
   * pending.
   */
  private static Set<String> served(String namespace) throws Exception {
    try (SchedulerMetrics metrics = new SchedulerMetrics(namespace, "default")) {
      for (String example : List.of("reclaim.yaml", "gang-all-or-nothing.yaml")) {
        ScenarioStart start =
            ScenarioStart.of(
                ScenarioLoader.load(
                    RenderedChart.repositoryRoot().resolve("examples").resolve(example)));
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
            1);
      }
      Set<String> names = names(metrics.scrape());
      names.addAll(servedByNodeComponents());
      return names;
    }
  }

  /** The names of the samples the device agent and the DRA driver serve. */
  private static Set<String> servedByNodeComponents() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try {
      DeviceAgentMetrics agent = new DeviceAgentMetrics(registry, "gpu-0");
      GpuDevice gpu =
          new GpuDevice(
              0,
              "GPU-0",
              "00000000:18:00.0",
              "NVIDIA H100 80GB HBM3",
              81559,
              MigMode.DISABLED,
              List.of(),
              OptionalInt.empty(),
              GpuHealth.HEALTHY,
              Optional.empty());
      agent
          .gpus()
          .discovered(
              new GpuInventory("580", Optional.empty(), List.of(gpu), false, List.of(), List.of()));
      agent.gpus().health(List.of(new GpuMetrics.GpuHealthRow("GPU-0", 0, true)));
      agent.gpus().xid(new XidError("GPU-0", 0, 79));
      agent
          .overGrant()
          .round(List.of(new OverGrantMetrics.PodGpuMemory("default", "a", "GPU-0", 5000, 4077)));
      agent.overGrant().warned();
      agent.allocations().allocated("nvidia.com/gpu", 1);
      DraDriverMetrics dra = new DraDriverMetrics(registry, "gpu-0");
      dra.published(8, 1);
      dra.call(DraDriverMetrics.PREPARE, Duration.ofMillis(3));
      dra.claim(DraDriverMetrics.PREPARE, true);
      dra.cdiSpecWritten(true);
      return names(registry.scrape());
    } finally {
      registry.close();
    }
  }

  private static Set<String> names(String scrape) {
    Set<String> names = new TreeSet<>();
    for (String line : scrape.lines().toList()) {
      Matcher m = METRIC.matcher(line);
      if (!line.startsWith("#") && m.lookingAt()) {
        names.add(m.group());
      }
    }
    return names;
  }

  /** Every {@code expr} of every panel of the rendered dashboards ConfigMap. */
  private static List<String> expressions(String namespace) throws Exception {
    RenderedChart chart =
        RenderedChart.render(
            Map.of(
                "metrics.grafanaDashboard.enabled", true, "scheduler.metricsNamespace", namespace));
    ObjectNode configMap = chart.find("ConfigMap", "gantry-dashboard").orElseThrow();
    List<String> out = new ArrayList<>();
    JsonNode data = configMap.get("data");
    assertThat(data.size()).as("queues, scheduler internals, nodes").isEqualTo(3);
    for (JsonNode dashboard : (Iterable<JsonNode>) () -> data.elements()) {
      JsonNode d = JSON.readTree(dashboard.asText());
      assertThat(d.at("/templating/list/1/query").asText()).isEqualTo(namespace);
      for (JsonNode panel : d.get("panels")) {
        assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
        for (JsonNode target : panel.get("targets")) {
          out.add(target.get("expr").asText().replace("${metrics_namespace}", namespace));
        }
      }
    }
    return out;
  }

  @Test
  void everyMetricADashboardQueriesIsRegistered() throws Exception {
    for (String namespace : List.of("gantry", "kai")) {
      Set<String> served = served(namespace);
      List<String> exprs = expressions(namespace);
      assertThat(exprs).hasSizeGreaterThan(20);
      for (String expr : exprs) {
        List<String> names = metricNames(expr);
        assertThat(names).as("a metric in %s", expr).isNotEmpty();
        assertThat(served).as("%s, in %s", namespace, expr).containsAll(names);
      }
    }
  }

  @Test
  void theDashboardFilesAreValidJson() throws Exception {
    try (Stream<Path> files = Files.list(RenderedChart.chart().resolve("dashboards"))) {
      for (Path f : files.toList()) {
        assertThat(JSON.readTree(f.toFile()).get("uid").asText()).startsWith("gantry-");
      }
    }
  }

  /**
   * The metric names of an expression: its identifiers less PromQL's words, label matchers, range
   * selectors, grouping labels and the exponents of numbers.
   */
  static List<String> metricNames(String expr) {
    String bare =
        expr.replaceAll("\\{[^}]*}", "")
            .replaceAll("\\[[^]]*]", "")
            .replaceAll("\\b(by|without)\\s*\\([^)]*\\)", "");
    List<String> out = new ArrayList<>();
    Matcher m = METRIC.matcher(bare);
    while (m.find()) {
      boolean exponent = m.start() > 0 && Character.isDigit(bare.charAt(m.start() - 1));
      if (!PROMQL_WORDS.contains(m.group()) && !exponent) {
        out.add(m.group());
      }
    }
    return out;
  }
}
