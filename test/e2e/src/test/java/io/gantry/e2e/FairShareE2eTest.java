package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two queues of equal weight, used from two namespaces, each asking for the whole cluster: each
 * ends with its fair share, half the GPUs, and the Queue status says so; and a queue that holds
 * more than its share gives the surplus back through the API when the other queue asks for it.
 */
class FairShareE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final E2eCluster cluster = new E2eCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void twoQueuesInTwoNamespacesConvergeToTheirFairShares() {
    cluster.node(gpuNode("gpu-0", 4));
    cluster.node(gpuNode("gpu-1", 4));
    cluster.create(queue("org", null, 0));
    cluster.create(queue("team-a", "org", 0));
    cluster.create(queue("team-b", "org", 0));
    for (String team : new String[] {"a", "b"}) {
      for (int i = 0; i < 8; i++) {
        cluster.create(podGroup(team, "job-" + i, "team-" + team, 1));
        cluster.create(inGroup(pod(team, "job-" + i, TestObjects.SCHEDULER, "1", 1), "job-" + i));
      }
    }
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    await().atMost(WAIT).until(() -> cluster.boundPods("a") + cluster.boundPods("b") == 8);
    assertThat(cluster.boundPods("a")).isEqualTo(4);
    assertThat(cluster.boundPods("b")).isEqualTo(4);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              for (String q : new String[] {"team-a", "team-b"}) {
                var status =
                    cluster
                        .kube
                        .store()
                        .get(ResourceKinds.QUEUES, "", q)
                        .orElseThrow()
                        .path("status");
                assertThat(status.at("/allocated/nvidia.com~1gpu").asText()).as(q).isEqualTo("4");
                assertThat(status.at("/requested/nvidia.com~1gpu").asText()).as(q).isEqualTo("8");
                assertThat(status.at("/allocatedNonPreemptible/nvidia.com~1gpu").asText())
                    .as(q)
                    .isEqualTo("0");
              }
              var org = cluster.kube.store().get(ResourceKinds.QUEUES, "", "org").orElseThrow();
              assertThat(org.at("/status/allocated/nvidia.com~1gpu").asText()).isEqualTo("8");
            });
  }

  @Test
  void reclaimEvictsThroughTheApiAndBindsTheReclaimerOnceTheVictimsAreGone() {
    cluster.node(gpuNode("gpu-0", 4));
    cluster.node(gpuNode("gpu-1", 4));
    cluster.create(queue("org", null, 0));
    cluster.create(queue("team-a", "org", 0));
    cluster.create(queue("team-b", "org", 0));
    for (int i = 0; i < 8; i++) {
      cluster.create(podGroup("a", "job-" + i, "team-a", 1));
      cluster.create(inGroup(pod("a", "job-" + i, TestObjects.SCHEDULER, "1", 1), "job-" + i));
    }
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));
    await().atMost(WAIT).until(() -> cluster.boundPods("a") == 8);

    for (int i = 0; i < 4; i++) {
      cluster.create(podGroup("b", "job-" + i, "team-b", 1));
      cluster.create(inGroup(pod("b", "job-" + i, TestObjects.SCHEDULER, "1", 1), "job-" + i));
    }

    // team-a held the whole cluster, twice its fair share: four of its pods are evicted (deleted
    // through the API and removed by the kubelet), and team-b's pods bind in the room they leave
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(cluster.boundPods("b")).isEqualTo(4);
              assertThat(cluster.pods("a")).hasSize(4);
              assertThat(cluster.boundPods("a")).isEqualTo(4);
            });
    assertThat(cluster.kube.store().list(ResourceKinds.EVENTS, "a"))
        .extracting(e -> e.path("reason").asText())
        .contains("Evict");
    for (int i = 0; i < 4; i++) {
      assertThat(cluster.bindings("b", "job-" + i)).as("b/job-" + i + " bound once").isEqualTo(1);
    }
  }
}
