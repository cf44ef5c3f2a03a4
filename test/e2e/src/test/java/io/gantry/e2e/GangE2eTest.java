package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A 4-pod gang is bound all at once, or not at all while only 3 fit: then the PodGroup carries
 * KAI's scheduling condition and each pod {@code PodScheduled=False} with KAI's gang message.
 */
class GangE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final E2eCluster cluster = new E2eCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void aGangIsBoundWholeOrWaitsWithKaisMessages() {
    for (int i = 0; i < 3; i++) {
      cluster.node(gpuNode("gpu-" + i, 1));
    }
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
    cluster.create(podGroup("ml", "gang", "team", 4));
    for (int i = 0; i < 4; i++) {
      cluster.create(inGroup(pod("ml", "worker-" + i, TestObjects.SCHEDULER, "1", 1), "gang"));
    }
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode pg =
                  cluster.kube.store().get(ResourceKinds.POD_GROUPS, "ml", "gang").orElseThrow();
              JsonNode condition = pg.at("/status/schedulingConditions/0");
              assertThat(condition.path("type").asText()).isEqualTo("UnschedulableOnNodePool");
              assertThat(condition.path("nodePool").asText()).isEqualTo("default");
              assertThat(condition.path("status").asText()).isEqualTo("True");
              assertThat(condition.path("message").asText()).contains("gang");
              for (int i = 0; i < 4; i++) {
                JsonNode scheduled = podScheduled(cluster.pod("ml", "worker-" + i));
                assertThat(scheduled.path("status").asText()).isEqualTo("False");
                assertThat(scheduled.path("reason").asText()).isEqualTo("Unschedulable");
                assertThat(scheduled.path("message").asText())
                    .contains("are required for gang scheduling");
              }
            });
    assertThat(cluster.bindings()).isZero();
    assertThat(cluster.boundPods("ml")).isZero();

    cluster.node(gpuNode("gpu-3", 1));

    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 4);
    assertThat(cluster.bindings()).isEqualTo(4);
    assertThat(cluster.pods("ml"))
        .extracting(p -> p.at("/spec/nodeName").asText())
        .containsExactlyInAnyOrder("gpu-0", "gpu-1", "gpu-2", "gpu-3");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        cluster
                            .kube
                            .store()
                            .get(ResourceKinds.POD_GROUPS, "ml", "gang")
                            .orElseThrow()
                            .at("/status/schedulingConditions"))
                    .isEmpty());
  }

  static JsonNode podScheduled(JsonNode pod) {
    for (JsonNode c : pod.at("/status/conditions")) {
      if (c.path("type").asText().equals("PodScheduled")) {
        return c;
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }
}
