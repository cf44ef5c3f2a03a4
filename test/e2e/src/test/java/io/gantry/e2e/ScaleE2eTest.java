package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.fakekube.FakeNode;
import io.gantry.scheduler.kube.KubeScheduler;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 1,000 nodes and 10,000 pending pods (1,000 PodGroups of 10) created through the fake API server
 * over HTTP, all bound; prints pods bound per second end to end, from the scheduler's start to the
 * last pod seen bound (a figure, not a timed assertion).
 */
class ScaleE2eTest {
  private static final int NODES = 1_000;
  private static final int GROUPS = 1_000;
  private static final int PODS_PER_GROUP = 10;
  private static final int PODS = GROUPS * PODS_PER_GROUP;

  private final E2eCluster cluster = new E2eCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void tenThousandPodsOnAThousandNodesAreAllBound() throws Exception {
    for (int i = 0; i < NODES; i++) {
      cluster.node(
          FakeNode.of(
              String.format("node-%04d", i),
              Map.of("cpu", "32", "memory", "256Gi", "pods", "110")));
    }
    cluster.create(queue("root", null, 0));
    cluster.create(queue("batch", "root", 0));
    long createStart = System.nanoTime();
    ExecutorService creators = Executors.newFixedThreadPool(4);
    List<Future<?>> work = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      int group = g;
      work.add(
          creators.submit(
              () -> {
                String name = "job-" + group;
                cluster.create(podGroup("load", name, "batch", 1));
                for (int p = 0; p < PODS_PER_GROUP; p++) {
                  cluster.create(
                      inGroup(pod("load", name + "-" + p, TestObjects.SCHEDULER, "1", 0), name));
                }
              }));
    }
    for (Future<?> f : work) {
      f.get();
    }
    creators.shutdown();
    double createSeconds = (System.nanoTime() - createStart) / 1e9;

    long start = System.nanoTime();
    KubeScheduler scheduler =
        cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));
    await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> cluster.boundPods("load") == PODS);
    double seconds = (System.nanoTime() - start) / 1e9;

    System.out.printf(
        "scale: %d pods on %d nodes created in %.1f s; all bound %.1f s after the scheduler"
            + " started: %.0f pods/s end to end (%d cycles)%n",
        PODS, NODES, createSeconds, seconds, PODS / seconds, scheduler.cycles());
    assertThat(cluster.bindings()).isEqualTo(PODS);
  }
}
