package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.config.SchedulerFileLoader;
import io.gantry.kubemodel.config.UsageDbSpec;
import io.gantry.kubemodel.config.UsageSpec;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.SearchBudgets;
import io.gantry.scheduler.kube.config.SchedulerConfigFile;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.usage.UsageDb;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code gantry scheduler --config}: the file shares a scenario's config keys, adds the scheduler's
 * own, and an invalid one stops start-up with the file, line and key.
 */
class SchedulerCommandTest {
  @TempDir Path dir;

  private static SchedulerSettings settings(String yaml) throws ScenarioException {
    return SchedulerConfigFile.settings(
        SchedulerFileLoader.parse("scheduler.yaml", yaml), "replica-0", "gantry-system");
  }

  @Test
  void aFullFileBindsEveryKey() throws ScenarioException {
    SchedulerSettings s =
        settings(
            """
            schedulerName: gpu-scheduler
            schedulePeriod: 500ms
            actions: [allocate]
            placement: {gpu: spread, cpu: binpack}
            plugins:
              proportion: {arguments: {kValue: 2}}
            queueLabelKey: example.com/queue
            nodePoolLabelKey: example.com/pool
            nodePoolLabelValue: a100
            leaderElection: {enabled: true, leaseName: gpu-lease, leaseDuration: 20s}
            bindConcurrency: 8
            statusWritesPerSecond: 20
            eventsPerSecond: 10
            staleGangGracePeriod: 2m
            queueDepthPerAction: {allocate: 10}
            defaultPrioritiesConfigMapName: priority-defaults
            defaultPrioritiesConfigMapNamespace: kai-system
            scenarioSearchBudgets:
              maxActionSearchDuration: {reclaim: 1m}
              maxGeneratorSearchDuration: {NodeLocalGreedy: 10s}
            """);

    assertThat(s.schedulerName()).isEqualTo("gpu-scheduler");
    assertThat(s.schedulePeriod()).isEqualTo(Duration.ofMillis(500));
    assertThat(s.engine().placement().gpu()).isEqualTo(PlacementStrategy.SPREAD);
    assertThat(s.engine().plugins().get("proportion").arguments()).containsEntry("kValue", 2L);
    assertThat(s.queueLabelKey()).isEqualTo("example.com/queue");
    assertThat(s.nodePool().labelKey()).contains("example.com/pool");
    assertThat(s.nodePool().labelValue()).contains("a100");
    assertThat(s.leaderElection().leaseName()).isEqualTo("gpu-lease");
    assertThat(s.leaderElection().namespace()).isEqualTo("gantry-system");
    assertThat(s.leaderElection().identity()).isEqualTo("replica-0");
    assertThat(s.leaderElection().leaseDuration()).isEqualTo(Duration.ofSeconds(20));
    assertThat(s.bindConcurrency()).isEqualTo(8);
    assertThat(s.statusWritesPerSecond()).isEqualTo(20);
    assertThat(s.eventsPerSecond()).isEqualTo(10);
    assertThat(s.engine().queueDepthPerAction().forAction("allocate")).hasValue(10);
    assertThat(s.workloadDefaults()).contains("kai-system/priority-defaults");
    assertThat(s.engine().evictions().defaultStalenessGracePeriod())
        .isEqualTo(Duration.ofMinutes(2));
    SearchBudgets budgets = s.engine().evictions().budgets();
    assertThat(budgets.action("reclaim")).isEqualTo(Duration.ofMinutes(1));
    assertThat(budgets.action("preempt")).isEqualTo(Duration.ofMinutes(5));
    assertThat(budgets.generator(SearchBudgets.NODE_LOCAL_GREEDY))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(budgets.maxJobSearchDuration()).isEqualTo(Duration.ofMinutes(4));
  }

  @Test
  void anEmptyMappingMeansEveryDefault() throws ScenarioException {
    SchedulerSettings s = settings("{}");

    assertThat(s.schedulerName()).isEqualTo("gantry-scheduler");
    assertThat(s.schedulePeriod()).isEqualTo(Duration.ofSeconds(1));
    assertThat(s.engine().actions())
        .containsExactly("allocate", "consolidation", "reclaim", "preempt", "stalegangeviction");
    assertThat(s.engine().evictions()).isEqualTo(EvictionSettings.DEFAULTS);
    assertThat(s.nodePool().labelKey()).isEqualTo(Optional.empty());
    assertThat(s.leaderElection().enabled()).isTrue();
    assertThat(s.leaderElection().leaseName()).isEqualTo("gantry-scheduler");
    assertThat(s.leaderElection().leaseDuration()).isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void usageDbConfigIsKaisAndTheUrlMayComeFromTheEnvironment() throws ScenarioException {
    String yaml =
        """
        usageDBConfig:
          clientType: prometheus
          connectionStringEnvVar: PROMETHEUS_URL
          usageParams:
            windowSize: 24h
            halfLifePeriod: 2h
            windowType: tumbling
            tumblingWindowStartTime: "2025-01-06T00:00:00Z"
            fetchInterval: 30s
            stalenessPeriod: 2m
            waitTimeout: 5s
            extraParams:
              usageQueryTimeout: 3s
              queryResolution: 5m
              gpuAllocationMetric: gantry_queue_gpu_usage
        """;
    SchedulerSettings s =
        SchedulerConfigFile.settings(
            SchedulerFileLoader.parse("scheduler.yaml", yaml),
            "replica-0",
            "gantry-system",
            Map.of("PROMETHEUS_URL", "http://prometheus.monitoring:9090"));

    UsageDb db = s.usageDb().orElseThrow();
    assertThat(db.address()).isEqualTo(URI.create("http://prometheus.monitoring:9090"));
    assertThat(db.spec())
        .isEqualTo(
            new UsageDbSpec(
                Optional.empty(),
                Optional.of("PROMETHEUS_URL"),
                Duration.ofHours(24),
                Duration.ofHours(2),
                UsageSpec.WindowType.TUMBLING,
                Optional.of(Instant.parse("2025-01-06T00:00:00Z")),
                Duration.ofSeconds(30),
                Duration.ofMinutes(2),
                Duration.ofSeconds(5),
                Duration.ofSeconds(3),
                Duration.ofMinutes(5),
                ImmutableSortedMap.of("gpuAllocationMetric", "gantry_queue_gpu_usage")));
    assertThatThrownBy(
            () ->
                SchedulerConfigFile.settings(
                    SchedulerFileLoader.parse("scheduler.yaml", yaml),
                    "replica-0",
                    "gantry-system",
                    Map.of()))
        .hasMessage(
            "scheduler.yaml:3: usageDBConfig.connectionStringEnvVar:"
                + " environment variable PROMETHEUS_URL is not set");
  }

  @Test
  void gpuSharingDefaultsToReservationPodsWithKaisTimeout() throws ScenarioException {
    SchedulerSettings s = settings("schedulerName: gantry-scheduler");

    assertThat(s.gpuSharing()).isEqualTo(GpuSharingSpec.DEFAULTS);
    assertThat(s.gpuSharing().mode()).isEqualTo(GpuSharingMode.RESERVATION_PODS);
    assertThat(s.gpuSharing().reservationTimeout()).isEqualTo(Duration.ofSeconds(40));
    assertThat(s.gpuSharing().reservationNamespace()).isEqualTo("gantry-resource-reservation");
  }

  @Test
  void gpuSharingBindsEveryKey() throws ScenarioException {
    SchedulerSettings s =
        settings(
            """
            gpuSharing:
              mode: device-plugin
              reservationNamespace: reservations
              reservationTimeout: 15s
              reservationImage: example.com/agent:1
              reservationServiceAccount: reserver
              runtimeClassName: ""
              scalingPods: true
              scalingNamespace: scaling
              scalingImage: example.com/pause:1
            """);

    assertThat(s.gpuSharing())
        .isEqualTo(
            new GpuSharingSpec(
                GpuSharingMode.DEVICE_PLUGIN,
                "reservations",
                Duration.ofSeconds(15),
                "example.com/agent:1",
                "reserver",
                Optional.empty(),
                true,
                "scaling",
                "example.com/pause:1"));
  }

  @Test
  void anUnknownGpuSharingModeIsNamedWithItsLine() {
    assertThatThrownBy(() -> settings("schedulerName: s\ngpuSharing:\n  mode: mig\n"))
        .hasMessage(
            "scheduler.yaml:3: gpuSharing.mode: expected one of reservation-pods, device-plugin,"
                + " got \"mig\"");
  }

  @Test
  void usageDbConfigDefaultsAreKais() throws ScenarioException {
    SchedulerSettings s =
        settings("usageDBConfig: {clientType: prometheus, connectionString: http://p:9090}");

    UsageDbSpec spec = s.usageDb().orElseThrow().spec();
    assertThat(spec.windowSize()).isEqualTo(Duration.ofDays(7));
    assertThat(spec.halfLifePeriod()).isZero();
    assertThat(spec.windowType()).isEqualTo(UsageSpec.WindowType.SLIDING);
    assertThat(spec.fetchInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(spec.stalenessPeriod()).isEqualTo(Duration.ofMinutes(5));
    assertThat(spec.waitTimeout()).isEqualTo(Duration.ofMinutes(1));
    assertThat(spec.queryTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(spec.queryResolution()).isEqualTo(Duration.ofMinutes(1));
    assertThat(settings("{}").usageDb()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "unknown key|schedulerNme: x|scheduler.yaml:1: schedulerNme: unknown field",
        "plugin argument|'plugins:\n  proportion: {arguments: {kValu: 2}}'"
            + "|scheduler.yaml:2: plugins.proportion.arguments.kValu: unknown argument",
        "unknown action|'actions: [allocate, teleport]'|scheduler.yaml:1: actions[1]:",
        "placement|'placement: {gpu: pack}'|scheduler.yaml:1: placement.gpu:",
        "simulation only|'cycles: 3'|scheduler.yaml:1: cycles: only a simulation has cycles",
        "defaults half|'defaultPrioritiesConfigMapName: d'"
            + "|scheduler.yaml:1: defaultPrioritiesConfigMapName: defaultPrioritiesConfigMapName"
            + " and defaultPrioritiesConfigMapNamespace go together",
        "queue depth action|'queueDepthPerAction: {allocate: 10, teleport: 2}'"
            + "|scheduler.yaml:1: queueDepthPerAction.teleport: unknown action \"teleport\"",
        "queue depth value|'queueDepthPerAction: {allocate: -2}'"
            + "|scheduler.yaml:1: queueDepthPerAction.allocate:",
        "queue depth not run|'actions: [allocate]\nqueueDepthPerAction: {reclaim: 2}'"
            + "|scheduler.yaml:2: queueDepthPerAction.reclaim:"
            + " \"reclaim\" is not one of the configured actions allocate",
        "usage|'usage: {windowSize: 1h}'"
            + "|scheduler.yaml:1: usage: only a simulation computes usage from its own history;"
            + " a scheduler reads it from Prometheus (usageDBConfig)",
        "usage db without url|'usageDBConfig: {clientType: prometheus}'"
            + "|scheduler.yaml:1: usageDBConfig: needs connectionString or connectionStringEnvVar",
        "usage db client|'usageDBConfig: {clientType: influx, connectionString: http://p:9090}'"
            + "|scheduler.yaml:1: usageDBConfig.clientType: expected one of prometheus",
        "usage db cron|'usageDBConfig:\n  clientType: prometheus\n  connectionString: http://p:9090\n"
            + "  usageParams: {windowType: cron}'"
            + "|scheduler.yaml:4: usageDBConfig.usageParams.windowType:"
            + " cron usage windows are not supported yet",
        "usage db url|'usageDBConfig: {clientType: prometheus, connectionString: p:9090}'"
            + "|scheduler.yaml:1: usageDBConfig.connectionString: expected an http or https URL",
        "usage db start|'usageDBConfig:\n  clientType: prometheus\n  connectionString: http://p:9090\n"
            + "  usageParams: {windowType: tumbling, tumblingWindowStartTime: monday}'"
            + "|scheduler.yaml:4: usageDBConfig.usageParams.tumblingWindowStartTime:"
            + " expected an RFC 3339 time",
        "usage db extra|'usageDBConfig:\n  clientType: prometheus\n  connectionString: http://p:9090\n"
            + "  usageParams: {extraParams: {gpuMetric: x}}'"
            + "|scheduler.yaml:4: usageDBConfig.usageParams.extraParams.gpuMetric: unknown field",
        "budgets|'scenarioSearchBudgets: {minJobSearchDuration: 5m}'"
            + "|scheduler.yaml:1: scenarioSearchBudgets.minJobSearchDuration:"
            + " minJobSearchDuration must be less than maxJobSearchDuration",
        "budget key|'scenarioSearchBudgets: {maxActionSearchDuration: {allocate: 1m}}'"
            + "|scheduler.yaml:1: scenarioSearchBudgets.maxActionSearchDuration.allocate:",
        "period|'schedulePeriod: 0s'|scheduler.yaml:1: schedulePeriod:",
        "pool value alone|'nodePoolLabelValue: a100'"
            + "|scheduler.yaml:1: nodePoolLabelValue: requires nodePoolLabelKey",
        "lease|'leaderElection: {leaseDuration: 5s, renewDeadline: 10s}'"
            + "|scheduler.yaml:1: leaderElection: renewDeadline must be shorter than leaseDuration",
      })
  void anInvalidFileNamesTheLineAndKey(String name, String yaml, String message) {
    assertThatThrownBy(() -> settings(yaml.replace("\\n", "\n")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void anInvalidConfigStopsStartUpWithExitStatusTwo() throws Exception {
    Path file = dir.resolve("scheduler.yaml");
    Files.writeString(
        file,
        "actions: [allocate]\nplugins:\n  gpupack: {arguments: {x: 1}}\n",
        StandardCharsets.UTF_8);

    CliRunner r = CliRunner.run("scheduler", "--config", file.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).startsWith("error: " + file + ":3: plugins.gpupack");
  }
}
