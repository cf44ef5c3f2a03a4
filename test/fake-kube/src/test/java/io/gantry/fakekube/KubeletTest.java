package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake kubelet: what a real kubelet reports for a bound pod, and graceful removal. */
class KubeletTest {
  private final FakeKubeServer kube = FakeKubeServer.start();
  private final FakeKubelet kubelet = FakeKubelet.start(kube);
  private final ApiClient client = Clients.apiClient(kube, 10);
  private final CoreV1Api core = new CoreV1Api(client);

  @AfterEach
  void stop() {
    kubelet.close();
    kube.close();
  }

  private void bind(String pod, String node) {
    kube.store().bind("default", pod, Json.parseObject("{\"target\":{\"name\":\"" + node + "\"}}"));
  }

  @Test
  void registeredNodeIsReadyWithItsCapacityAndReadableByTheStrictClient() throws ApiException {
    kubelet.registerNode(
        FakeNode.of(
            "gpu-0",
            Map.of("cpu", "64", "memory", "512Gi", "nvidia.com/gpu", "8"),
            Map.of("pool", "a")));

    V1Node node = core.readNode("gpu-0").execute();

    assertThat(node.getStatus().getCapacity().get("nvidia.com/gpu").getNumber())
        .isEqualByComparingTo("8");
    assertThat(node.getStatus().getAllocatable()).isEqualTo(node.getStatus().getCapacity());
    assertThat(node.getStatus().getConditions().get(0).getType()).isEqualTo("Ready");
    assertThat(node.getStatus().getConditions().get(0).getStatus()).isEqualTo("True");
    assertThat(node.getMetadata().getLabels())
        .containsEntry("kubernetes.io/hostname", "gpu-0")
        .containsEntry("pool", "a");
  }

  @Test
  void boundPodBecomesRunningWithReadyConditionsAndContainerStatuses() throws ApiException {
    kubelet.registerNode(FakeNode.of("n1", Map.of("cpu", "8")));
    core.createNamespacedPod("default", Clients.pod("default", "p")).execute();
    bind("p", "n1");

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              V1Pod pod = core.readNamespacedPod("p", "default").execute();
              assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
              assertThat(pod.getStatus().getStartTime()).isNotNull();
              assertThat(pod.getStatus().getHostIP()).isEqualTo("10.0.0.2");
              assertThat(pod.getStatus().getConditions())
                  .extracting(V1PodCondition::getType)
                  .containsExactlyInAnyOrder(
                      "PodScheduled", "Initialized", "ContainersReady", "Ready");
              assertThat(pod.getStatus().getContainerStatuses()).hasSize(1);
              assertThat(pod.getStatus().getContainerStatuses().get(0).getState().getRunning())
                  .isNotNull();
            });
  }

  @Test
  void unboundPodStaysPending() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p")).execute();
    core.createNamespacedPod("default", Clients.pod("default", "q")).execute();
    bind("q", "n1");

    await().atMost(Duration.ofSeconds(10)).until(() -> phase("q").equals("Running"));
    assertThat(phase("p")).isEqualTo("Pending");
  }

  @Test
  void deletedPodIsRemovedByTheKubeletAfterItsGracePeriod() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p")).execute();
    bind("p", "n1");
    await().atMost(Duration.ofSeconds(10)).until(() -> phase("p").equals("Running"));

    core.deleteNamespacedPod("p", "default").gracePeriodSeconds(30).execute();

    assertThat(kube.store().get(ResourceKinds.PODS, "default", "p")).isPresent();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> kube.store().get(ResourceKinds.PODS, "default", "p").isEmpty());
  }

  @Test
  void aFinalizerOutlivesTheGracePeriodUntilCleared() throws ApiException {
    V1Pod pod = Clients.pod("default", "p");
    pod.getMetadata().addFinalizersItem("gantry.io/hold");
    core.createNamespacedPod("default", pod).execute();
    bind("p", "n1");

    core.deleteNamespacedPod("p", "default").gracePeriodSeconds(1).execute();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                kube.store()
                        .get(ResourceKinds.PODS, "default", "p")
                        .map(p -> p.path("metadata").path("deletionGracePeriodSeconds").asInt())
                        .orElse(-1)
                    == 0);
    kube.store()
        .patch(
            ResourceKinds.PODS,
            "default",
            "p",
            PatchType.JSON_PATCH,
            "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]",
            false);

    assertThat(kube.store().get(ResourceKinds.PODS, "default", "p")).isEmpty();
  }

  @Test
  void finishedPodReportsSucceeded() throws ApiException {
    core.createNamespacedPod("default", Clients.pod("default", "p")).execute();
    bind("p", "n1");
    await().atMost(Duration.ofSeconds(10)).until(() -> phase("p").equals("Running"));

    kubelet.finishPod("default", "p", true);

    V1Pod pod = core.readNamespacedPod("p", "default").execute();
    assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
    assertThat(
            pod.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode())
        .isZero();
  }

  private String phase(String name) {
    return kube.store()
        .get(ResourceKinds.PODS, "default", name)
        .flatMap(p -> Json.text(p, "status.phase"))
        .orElse("");
  }
}
