package io.gantry.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the scheduler writes into the status of PodGroups, pods and queues over a fake API server,
 * as whole values under a fixed clock: the scheduling condition with its transition id and time,
 * {@code resourcesStatus}, the unschedulable pod's condition and the queue's amounts.
 */
class StatusWritesTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String SCHEDULER = SchedulerSettings.DEFAULT_SCHEDULER_NAME;
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00.250Z");
  private static final String POD_TOO_BIG =
      "Resources were not found for pod ml/big-0 due to: no nodes with enough resources were found:"
          + " 1 node(s) didn't have enough resources: GPUs.";
  private static final String GROUP_TOO_BIG =
      "PodSchedulingErrors: Resources were not found for pod ml/big-0 due to: no eviction can make"
          + " room for it: no nodes with enough resources were found: 1 node(s) didn't have enough"
          + " allocatable resources: GPUs. \\n"
          + POD_TOO_BIG;

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

  private void podGroupWithPod(String name, int gpus) {
    kube.store().create(TestObjects.podGroup("ml", name, "default-queue", 1));
    TestObjects.create(
        kube, TestObjects.inGroup(TestObjects.pod("ml", name + "-0", SCHEDULER, "1", gpus), name));
  }

  private JsonNode podGroup(String name) {
    return kube.store().get(ResourceKinds.POD_GROUPS, "ml", name).orElseThrow();
  }

  @Test
  void aPodGroupThatCannotFitIsToldWhyAndOneThatFitsShowsWhatItHolds() {
    kubelet.registerNode(TestObjects.gpuNode("gpu-0", 8));
    TestObjects.defaultQueues(kube);
    podGroupWithPod("big", 16);
    podGroupWithPod("small", 2);

    scheduler =
        KubeScheduler.start(
            KubeClients.forUrl(kube.url()),
            Schedulers.settings(Duration.ofMillis(100), Optional.empty()),
            Clock.fixed(NOW, ZoneOffset.UTC));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(podGroup("big").path("status").toString())
                    .isEqualTo(
                        "{\"schedulingConditions\":[{\"type\":\"UnschedulableOnNodePool\","
                            + "\"nodePool\":\"default\",\"reason\":\"Unschedulable\","
                            + "\"message\":\""
                            + GROUP_TOO_BIG
                            + "\",\"reasons\":[{\"reason\":\"PodSchedulingErrors\",\"message\":\""
                            + GROUP_TOO_BIG
                            + "\"}],\"status\":\"True\",\"transitionID\":\"0\","
                            + "\"lastTransitionTime\":\"2026-03-01T10:00:00.250Z\"}],"
                            + "\"resourcesStatus\":{\"allocated\":{\"cpu\":\"0m\",\"memory\":\"0\","
                            + "\"nvidia.com/gpu\":\"0\"},\"allocatedNonPreemptible\":{\"cpu\":\"0m\","
                            + "\"memory\":\"0\",\"nvidia.com/gpu\":\"0\"},\"requested\":{\"cpu\":"
                            + "\"1000m\",\"memory\":\"1073741824\",\"nvidia.com/gpu\":\"16\"}}}"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(podGroup("small").path("status").toString())
                    .isEqualTo(
                        "{\"resourcesStatus\":{\"allocated\":{\"cpu\":\"1000m\",\"memory\":"
                            + "\"1073741824\",\"nvidia.com/gpu\":\"2\"},\"allocatedNonPreemptible\":"
                            + "{\"cpu\":\"0m\",\"memory\":\"0\",\"nvidia.com/gpu\":\"0\"},"
                            + "\"requested\":{\"cpu\":\"1000m\",\"memory\":\"1073741824\","
                            + "\"nvidia.com/gpu\":\"2\"}}}"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode pod = kube.store().get(ResourceKinds.PODS, "ml", "big-0").orElseThrow();
              assertThat(pod.at("/status/conditions").toString())
                  .isEqualTo(
                      "[{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":"
                          + "\"Unschedulable\",\"message\":\""
                          + POD_TOO_BIG
                          + "\",\"lastProbeTime\":null,"
                          + "\"lastTransitionTime\":\"2026-03-01T10:00:00.250Z\"}]");
              JsonNode queue =
                  kube.store().get(ResourceKinds.QUEUES, "", "default-queue").orElseThrow();
              assertThat(queue.path("status").toString())
                  .isEqualTo(
                      "{\"allocated\":{\"cpu\":\"1000m\",\"memory\":\"1073741824\","
                          + "\"nvidia.com/gpu\":\"2\"},\"allocatedNonPreemptible\":{\"cpu\":"
                          + "\"0m\",\"memory\":\"0\",\"nvidia.com/gpu\":\"0\"},\"requested\":"
                          + "{\"cpu\":\"2000m\",\"memory\":\"2147483648\",\"nvidia.com/gpu\":"
                          + "\"18\"}}");
            });
  }
}
