package io.gantry.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.ResourceKinds;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The secondary scheduler over a fake API server: KAI's quickstart GPU pod is grouped and bound.
 */
class KubeSchedulerTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final FakeKubelet kubelet = FakeKubelet.start(kube);
  private KubeScheduler scheduler;

  @AfterEach
  void stop() {
    if (scheduler != null) {
      scheduler.close();
    }
    kubelet.close();
    kube.close();
  }

  @Test
  void kaisQuickstartGpuPodIsGroupedBoundAndRuns() {
    kubelet.registerNode(TestObjects.gpuNode("gpu-0", 8));
    TestObjects.defaultQueues(kube);
    kube.store()
        .create(
            ResourceKinds.PODS,
            "default",
            KaiManifests.load("quickstart-pods-gpu-pod.yaml", "default"));

    scheduler =
        KubeScheduler.start(
            KubeClients.forUrl(kube.url()),
            Schedulers.settings(Duration.ofMillis(100), Optional.empty()),
            Clock.systemUTC());

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode pod =
                  kube.store().get(ResourceKinds.PODS, "default", "gpu-pod").orElseThrow();
              assertThat(pod.at("/spec/nodeName").asText()).isEqualTo("gpu-0");
              assertThat(pod.at("/status/phase").asText()).isEqualTo("Running");
              assertThat(pod.at("/metadata/annotations/gantry.io~1gpu-allocation").asText())
                  .isEqualTo(
                      "{\"version\":1,\"node\":\"gpu-0\",\"deviceCount\":1,\"portion\":\"1.00\",\"computeMode\":\"time-slicing\",\"gpuGroups\":[],\"devices\":[]}");
            });
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(kube.store().list(ResourceKinds.EVENTS, "default"))
                    .extracting(e -> e.path("reason").asText())
                    .contains("Scheduled"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode queue =
                  kube.store().get(ResourceKinds.QUEUES, "", "default-queue").orElseThrow();
              assertThat(queue.at("/status/allocated/nvidia.com~1gpu").asText()).isEqualTo("1");
            });
  }
}
