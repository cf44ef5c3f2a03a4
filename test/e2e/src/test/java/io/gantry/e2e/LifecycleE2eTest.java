package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.KubeScheduler;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A PodGroup's lifecycle lives in KAI's annotations on the PodGroup (kai-reference §2.2): the
 * scheduler writes the last start when the gang runs and the stale time when it falls below its
 * minimum, and a scheduler started afterwards reads them back instead of starting the clocks anew.
 */
class LifecycleE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String LAST_START = "kai.scheduler/last-start-timestamp";
  private static final String STALE_SINCE = "kai.scheduler/stale-podgroup-timestamp";

  private final E2eCluster cluster = new E2eCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void aRestartedSchedulerKeepsTheLastStartAndStaleTimesItFinds() {
    cluster.node(gpuNode("gpu-0", 1));
    cluster.node(gpuNode("gpu-1", 1));
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
    ObjectNode group = podGroup("ml", "gang", "team", 2);
    // read from the spec: the gang stays stale for the whole test instead of KAI's default 60s
    ((ObjectNode) group.get("spec")).put("stalenessGracePeriod", "1h");
    cluster.create(group);
    for (int i = 0; i < 2; i++) {
      cluster.create(inGroup(pod("ml", "worker-" + i, TestObjects.SCHEDULER, "1", 1), "gang"));
    }
    KubeScheduler first =
        cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 2);
    await().atMost(WAIT).until(() -> annotation(LAST_START).isPresent());
    String started = annotation(LAST_START).get();
    assertThat(Instant.parse(started)).isBefore(Instant.now().plusSeconds(1));

    cluster.kubelet.finishPod("ml", "worker-1", false);
    await().atMost(WAIT).until(() -> annotation(STALE_SINCE).isPresent());
    // the cache catches up with the write within a few cycles; from then on the value holds
    await()
        .atMost(WAIT)
        .until(() -> first.cycles() > 10 && annotation(STALE_SINCE).equals(staleAfter(first)));
    String staleSince = annotation(STALE_SINCE).get();
    first.halt();

    KubeScheduler second =
        cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));
    long secondsBefore = Instant.now().getEpochSecond();
    await()
        .atMost(WAIT)
        .until(() -> second.cycles() > 10 && Instant.now().getEpochSecond() > secondsBefore + 1);

    assertThat(annotation(STALE_SINCE)).contains(staleSince);
    assertThat(annotation(LAST_START)).contains(started);
    assertThat(cluster.pod("ml", "worker-0").at("/metadata/deletionTimestamp").isMissingNode())
        .as("a 1h grace period has not passed: the remaining pod is not evicted")
        .isTrue();
  }

  /** The stale annotation after the scheduler ran one more cycle. */
  private Optional<String> staleAfter(KubeScheduler scheduler) {
    long cycles = scheduler.cycles();
    await().atMost(WAIT).until(() -> scheduler.cycles() > cycles + 1);
    return annotation(STALE_SINCE);
  }

  private Optional<String> annotation(String key) {
    JsonNode pg = cluster.kube.store().get(ResourceKinds.POD_GROUPS, "ml", "gang").orElseThrow();
    JsonNode value = pg.path("metadata").path("annotations").path(key);
    return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }
}
