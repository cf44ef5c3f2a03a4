package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.KubeScheduler;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Watches that break mid-run — the stream dropped, then ended and answered {@code 410 Gone} after
 * the history was compacted — are recovered by relisting, and no pod is decided (bound) twice.
 */
class WatchRecoveryE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String PODS = "/api/v1/pods";

  private final E2eCluster cluster = new E2eCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  private void wave(int from, int to) {
    for (int i = from; i < to; i++) {
      cluster.create(podGroup("ns", "job-" + i, "team", 1));
      cluster.create(inGroup(pod("ns", "job-" + i, TestObjects.SCHEDULER, "1", 1), "job-" + i));
    }
  }

  @Test
  void brokenAndExpiredWatchesAreRelistedAndNothingIsDecidedTwice() {
    for (int i = 0; i < 4; i++) {
      cluster.node(gpuNode("gpu-" + i, 8));
    }
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
    KubeScheduler scheduler =
        cluster.scheduler(Schedulers.settings(Duration.ofMillis(100), Optional.empty()));
    await().atMost(WAIT).until(scheduler::ready);
    wave(0, 8);
    await().atMost(WAIT).until(() -> cluster.boundPods("ns") == 8);
    int lists = cluster.kube.requests().count("list", PODS);

    // the connection drops mid-stream: the reflector relists
    cluster.kube.breakWatches();
    wave(8, 16);
    await().atMost(WAIT).until(() -> cluster.kube.requests().count("list", PODS) > lists);
    await().atMost(WAIT).until(() -> cluster.boundPods("ns") == 16);

    // the history is compacted and the watch ends: resuming gets 410 Gone, and a relist
    int listsBefore410 = cluster.kube.requests().count("list", PODS);
    cluster
        .kube
        .store()
        .create(
            ResourceKinds.CONFIG_MAPS,
            "ns",
            io.gantry.fakekube.Json.parseObject("{\"metadata\":{\"name\":\"tick\"}}"));
    cluster.kube.compact();
    cluster.kube.closeWatches();
    wave(16, 24);
    await().atMost(WAIT).until(() -> cluster.kube.requests().count("list", PODS) > listsBefore410);
    await().atMost(WAIT).until(() -> cluster.boundPods("ns") == 24);

    for (int i = 0; i < 24; i++) {
      assertThat(cluster.bindings("ns", "job-" + i)).as("job-" + i).isEqualTo(1);
    }
    assertThat(cluster.bindings()).isEqualTo(24);
  }
}
