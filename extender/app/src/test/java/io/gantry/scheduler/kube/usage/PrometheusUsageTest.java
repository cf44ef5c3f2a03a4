package io.gantry.scheduler.kube.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.config.UsageDbSpec;
import io.gantry.kubemodel.config.UsageSpec;
import io.gantry.scheduler.model.ResourceVector;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Usage from a real Prometheus, with KAI's metrics and queries. Over the last 40 minutes (one
 * sample a minute) the cluster has 8 GPUs (two nodes of 4) and 64 cores; team-a held 8 GPUs from 25
 * to 11 minutes ago and 16 cores throughout; team-b held 4 GPUs for the last 10 minutes. Nobody
 * reports memory.
 */
class PrometheusUsageTest {
  // the backfilled samples must lie inside a real Prometheus's retention, so they are placed
  // relative to the real time, once for the class
  @SuppressWarnings("TimeInStaticInitializer")
  private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MINUTES).minusSeconds(60);

  @TempDir static Path dir;
  private static PrometheusServer prometheus;

  @BeforeAll
  static void startPrometheus() {
    prometheus =
        PrometheusServer.start(
            dir,
            new OpenMetrics(NOW, 40)
                .gauge(
                    "kube_node_status_capacity", "resource=\"nvidia_com_gpu\",node=\"n0\"", k -> 4)
                .gauge(
                    "kube_node_status_capacity", "resource=\"nvidia_com_gpu\",node=\"n1\"", k -> 4)
                .gauge("kube_node_status_capacity", "resource=\"cpu\",node=\"n0\"", k -> 64)
                .gauge(
                    "kube_node_status_capacity",
                    "resource=\"memory\",node=\"n0\"",
                    k -> 512.0 * (1L << 30))
                .gauge(
                    "kai_queue_allocated_gpus",
                    "queue_name=\"team-a\"",
                    k -> k >= 11 && k <= 25 ? 8 : 0)
                .gauge("kai_queue_allocated_gpus", "queue_name=\"team-b\"", k -> k <= 10 ? 4 : 0)
                .gauge("kai_queue_allocated_cpu_cores", "queue_name=\"team-a\"", k -> 16)
                .text());
  }

  @AfterAll
  static void stopPrometheus() {
    if (prometheus != null) {
      prometheus.close();
    }
  }

  private static UsageDbSpec spec(
      Duration window, Duration halfLife, UsageSpec.WindowType type, Optional<Instant> start) {
    return spec(window, halfLife, type, start, ImmutableSortedMap.of());
  }

  private static UsageDbSpec spec(
      Duration window,
      Duration halfLife,
      UsageSpec.WindowType type,
      Optional<Instant> start,
      ImmutableSortedMap<String, String> metrics) {
    return new UsageDbSpec(
        Optional.of(prometheus.url().toString()),
        Optional.empty(),
        window,
        halfLife,
        type,
        start,
        UsageDbSpec.DEFAULT_FETCH_INTERVAL,
        UsageDbSpec.DEFAULT_STALENESS_PERIOD,
        UsageDbSpec.DEFAULT_WAIT_TIMEOUT,
        UsageDbSpec.DEFAULT_QUERY_TIMEOUT,
        UsageDbSpec.DEFAULT_QUERY_RESOLUTION,
        metrics);
  }

  private static PrometheusClient client() {
    return new PrometheusClient(
        prometheus.url(), HttpClient.newHttpClient(), UsageDbSpec.DEFAULT_QUERY_TIMEOUT);
  }

  private static ImmutableSortedMap<String, ResourceVector> fetch(UsageDbSpec spec)
      throws IOException {
    return new PrometheusUsage(client(), spec).fetch(NOW);
  }

  private static UsageDbSpec sliding(Duration window, Duration halfLife) {
    return spec(window, halfLife, UsageSpec.WindowType.SLIDING, Optional.empty());
  }

  /** How many one-minute steps Prometheus evaluates in a window ending now (its own rule). */
  private static int steps(Duration window) throws IOException {
    return (int)
        client()
            .query("count_over_time((vector(1))[" + window.toSeconds() + "s:1m])", NOW)
            .get(0)
            .value();
  }

  /** Σ over the window's steps k (minutes ago) of {@code value(k)·0.5^(k/halfLife)}. */
  private static double decayed(int steps, double halfLifeMinutes, Map<Integer, Double> value) {
    double sum = 0;
    for (int k = 0; k < steps; k++) {
      sum += value.getOrDefault(k, 0.0) * Math.pow(0.5, k / halfLifeMinutes);
    }
    return sum;
  }

  @Test
  void aSlidingWindowDividesEachQueuesAllocationByTheClustersCapacity() throws IOException {
    ImmutableSortedMap<String, ResourceVector> usage =
        fetch(sliding(Duration.ofMinutes(10), Duration.ZERO));

    assertThat(usage.keySet()).containsExactly("team-a", "team-b");
    assertThat(usage.get("team-a")).isEqualTo(new ResourceVector(0, 16.0 / 64, 0));
    assertThat(usage.get("team-b")).isEqualTo(new ResourceVector(0.5, 0, 0));
  }

  @Test
  void aLongerWindowReachesFurtherBack() throws IOException {
    Duration window = Duration.ofMinutes(30);
    int steps = steps(window);

    ImmutableSortedMap<String, ResourceVector> usage = fetch(sliding(window, Duration.ZERO));

    assertThat(usage.get("team-a").gpus()).isCloseTo(15 * 8.0 / (steps * 8), within(1e-12));
    assertThat(usage.get("team-b").gpus()).isCloseTo(11 * 4.0 / (steps * 8), within(1e-12));
  }

  @Test
  void aHalfLifeWeighsRecentUsageMore() throws IOException {
    Duration window = Duration.ofMinutes(30);
    int steps = steps(window);
    Map<Integer, Double> a = new TreeMap<>();
    Map<Integer, Double> b = new TreeMap<>();
    Map<Integer, Double> capacity = new TreeMap<>();
    for (int k = 0; k <= 40; k++) {
      a.put(k, k >= 11 && k <= 25 ? 8.0 : 0.0);
      b.put(k, k <= 10 ? 4.0 : 0.0);
      capacity.put(k, 8.0);
    }

    ImmutableSortedMap<String, ResourceVector> usage =
        fetch(sliding(window, Duration.ofMinutes(10)));

    double total = decayed(steps, 10, capacity);
    assertThat(usage.get("team-a").gpus()).isCloseTo(decayed(steps, 10, a) / total, within(1e-9));
    assertThat(usage.get("team-b").gpus()).isCloseTo(decayed(steps, 10, b) / total, within(1e-9));
    assertThat(usage.get("team-b").gpus())
        .isGreaterThan(fetch(sliding(window, Duration.ZERO)).get("team-b").gpus());
  }

  @Test
  void aTumblingWindowStartsAtTheLastReset() throws IOException {
    UsageDbSpec fiveMinutesIn =
        spec(
            Duration.ofMinutes(10),
            Duration.ZERO,
            UsageSpec.WindowType.TUMBLING,
            Optional.of(NOW.minus(Duration.ofMinutes(25))));

    ImmutableSortedMap<String, ResourceVector> usage = fetch(fiveMinutesIn);

    assertThat(usage.get("team-a").gpus()).isZero();
    assertThat(usage.get("team-b").gpus()).isEqualTo(0.5);
  }

  @Test
  void aTumblingWindowThatJustRestartedHasNoUsage() throws IOException {
    UsageDbSpec justReset =
        spec(
            Duration.ofMinutes(10),
            Duration.ZERO,
            UsageSpec.WindowType.TUMBLING,
            Optional.of(NOW.minus(Duration.ofMinutes(20))));

    assertThat(fetch(justReset)).isEmpty();
  }

  @Test
  void metricsCanBeOverriddenWithPromql() throws IOException {
    UsageDbSpec doubled =
        spec(
            Duration.ofMinutes(10),
            Duration.ZERO,
            UsageSpec.WindowType.SLIDING,
            Optional.empty(),
            ImmutableSortedMap.of(
                "gpuAllocationMetric", "kai_queue_allocated_gpus * 2",
                "cpuCapacityMetric", "vector(32)"));

    ImmutableSortedMap<String, ResourceVector> usage = fetch(doubled);

    assertThat(usage.get("team-b").gpus()).isEqualTo(1.0);
    assertThat(usage.get("team-a").cpuMillis()).isEqualTo(0.5);
  }

  @Test
  void aQueryPrometheusRefusesIsAnErrorWithItsMessage() {
    UsageDbSpec broken =
        spec(
            Duration.ofMinutes(10),
            Duration.ZERO,
            UsageSpec.WindowType.SLIDING,
            Optional.empty(),
            ImmutableSortedMap.of("gpuAllocationMetric", "sum("));

    assertThatThrownBy(() -> fetch(broken))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("prometheus refused query sum_over_time((sum()[600000ms:60000ms])")
        .hasMessageContaining("bad_data");
  }
}
