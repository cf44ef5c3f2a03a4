package io.gantry.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.kubemodel.config.UsageDbSpec;
import io.gantry.kubemodel.config.UsageSpec;
import io.gantry.scheduler.kube.usage.OpenMetrics;
import io.gantry.scheduler.kube.usage.PrometheusServer;
import io.gantry.scheduler.kube.usage.UsageDb;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time-based fair share end to end: the secondary scheduler reads queue usage from a real
 * Prometheus. Two equal queues (no quota, over-quota weight 1) each want the node's 8 GPUs; team-a
 * held 4 of the 8 throughout the last ten minutes (usage 1/2) and team-b nothing, so the share
 * weights are 1/2 + (1/2 - 1/2) = 1/2 and 1/2 + 1/2 = 1: offers of 8/3 and 16/3 GPUs, handed out in
 * whole GPUs as KAI does (2 and 5, the leftover GPU to the larger remainder): team-a's fair share
 * is 3 GPUs and team-b's 5, where weights alone would give 4 and 4.
 */
class TimeBasedFairShareTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Pattern FAIR_SHARE =
      Pattern.compile("gantry_queue_fair_share_gpu\\{[^}]*queue_name=\"([^\"]+)\",?} (\\S+)");

  @TempDir Path dir;
  private final FakeKubeServer kube = FakeKubeServer.start();
  private final FakeKubelet kubelet = FakeKubelet.start(kube);
  private PrometheusServer prometheus;
  private KubeScheduler scheduler;

  @AfterEach
  void stop() {
    if (scheduler != null) {
      scheduler.close();
    }
    if (prometheus != null) {
      prometheus.close();
    }
    kubelet.close();
    kube.close();
  }

  private static double fairShare(String scrape, String queue) {
    Matcher m = FAIR_SHARE.matcher(scrape);
    while (m.find()) {
      if (m.group(1).equals(queue)) {
        return Double.parseDouble(m.group(2));
      }
    }
    return Double.NaN;
  }

  @Test
  void theQueueThatUsedMoreGetsTheSmallerFairShare() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
    prometheus =
        PrometheusServer.start(
            dir,
            new OpenMetrics(now, 20)
                .gauge(
                    "kube_node_status_capacity",
                    "resource=\"nvidia_com_gpu\",node=\"gpu-0\"",
                    k -> 8)
                .gauge("kube_node_status_capacity", "resource=\"cpu\",node=\"gpu-0\"", k -> 64)
                .gauge("kai_queue_allocated_gpus", "queue_name=\"team-a\"", k -> 4)
                .text());
    kubelet.registerNode(TestObjects.gpuNode("gpu-0", 8));
    kube.store().create(TestObjects.queue("team-a", null, 0));
    kube.store().create(TestObjects.queue("team-b", null, 0));
    for (String team : new String[] {"team-a", "team-b"}) {
      kube.store().create(TestObjects.podGroup("default", "pg-" + team, team, 1));
      TestObjects.create(
          kube,
          TestObjects.inGroup(
              TestObjects.pod("default", "train-" + team, TestObjects.SCHEDULER, "1", 8),
              "pg-" + team));
    }
    UsageDbSpec spec =
        new UsageDbSpec(
            Optional.of(prometheus.url().toString()),
            Optional.empty(),
            Duration.ofMinutes(10),
            Duration.ZERO,
            UsageSpec.WindowType.SLIDING,
            Optional.empty(),
            Duration.ofSeconds(1),
            UsageDbSpec.DEFAULT_STALENESS_PERIOD,
            Duration.ofSeconds(20),
            UsageDbSpec.DEFAULT_QUERY_TIMEOUT,
            UsageDbSpec.DEFAULT_QUERY_RESOLUTION,
            ImmutableSortedMap.of());

    scheduler =
        KubeScheduler.start(
            KubeClients.forUrl(kube.url()),
            Schedulers.withUsage(
                Schedulers.settings(Duration.ofMillis(100), Optional.empty()),
                new UsageDb(prometheus.url(), spec)),
            Clock.systemUTC());

    assertThat(scheduler.usageFetchedAt()).isPresent();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              String scrape = scheduler.metrics().scrape();
              assertThat(fairShare(scrape, "team-a")).isEqualTo(3);
              assertThat(fairShare(scrape, "team-b")).isEqualTo(5);
            });
  }
}
