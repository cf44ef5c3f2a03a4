package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.annotations;
import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.onNode;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.extender.AdmissionWebhook;
import io.gantry.extender.QueueLabelCheck;
import io.gantry.fakekube.DeleteOptions;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.PatchType;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.kube.KubeScheduler;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.ops.DebugServer;
import io.gantry.scheduler.model.QueueHierarchy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * GPU sharing next to NVIDIA's device plugin (issue 25): {@code gantry scheduler} in its default
 * {@code reservation-pods} mode against the fake API server, the test playing the reservation pod's
 * process ({@code gantry-device-agent reserve}) by writing the UUID annotation.
 */
class ReservationPodsE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(40);
  private static final String RESERVATIONS = GpuSharingSpec.DEFAULT_RESERVATION_NAMESPACE;
  private static final String SCALING = GpuSharingSpec.DEFAULT_SCALING_NAMESPACE;
  private static final String UUID_0 = "GPU-00000000-0000-0000-0000-000000000000";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final E2eCluster cluster = new E2eCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** A node with {@code gpus} GPUs and the device agent's inventory of them. */
  private void gpuNodeWithInventory(String name, int gpus) {
    cluster.node(gpuNode(name, gpus));
    ObjectNode patch = Json.object();
    patch
        .putObject("metadata")
        .putObject("annotations")
        .put(InventoryAnnotation.KEY, TestObjects.gpuInventory(gpus, List.of(), List.of()));
    cluster
        .kube
        .store()
        .patch(ResourceKinds.NODES, "", name, PatchType.MERGE_PATCH, Json.write(patch), false);
  }

  private void queues() {
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
  }

  /**
   * A pod of one {@code gpu-fraction: 0.5} in its own PodGroup, created and then changed as the
   * admission webhook (reservation-pods mode) says.
   */
  private void fractionPod(String name) throws Exception {
    fractionPod(name, false);
  }

  /** {@link #fractionPod(String)}, with KAI's {@code mps: "true"} when {@code mps}. */
  private void fractionPod(String name, boolean mps) throws Exception {
    cluster.create(podGroup("ml", name, "team", 1));
    ObjectNode pod = inGroup(pod("ml", name, TestObjects.SCHEDULER, "1", 0), name);
    annotations(pod).put("gpu-fraction", "0.5");
    if (mps) {
      annotations(pod).put("mps", "true");
    }
    AdmissionWebhook webhook =
        new AdmissionWebhook(
            AdmissionWebhook.FailurePolicy.Fail,
            ImmutableSet.of(),
            QueueLabelCheck.kaiDefaults(() -> QueueHierarchy.of(ImmutableList.of())),
            GpuSharingMode.RESERVATION_PODS);
    ObjectNode review = Json.object();
    ObjectNode request = review.putObject("request");
    request.put("uid", "review-" + name).put("namespace", "ml");
    request.set("object", pod);
    JsonNode answer =
        JSON.readTree(webhook.review(Json.write(review).getBytes(StandardCharsets.UTF_8)));
    assertThat(answer.at("/response/allowed").asBoolean()).isTrue();
    JsonNode patch =
        JSON.readTree(Base64.getDecoder().decode(answer.at("/response/patch").asText()));
    // admission changes the pod before it is stored (a stored pod's spec cannot change)
    for (JsonNode op : patch) {
      add(pod, op.get("path").asText(), op.get("value"));
    }
    cluster.create(pod);
  }

  /** A JSON patch {@code add} (object members and list appends, as the webhook writes them). */
  private static void add(ObjectNode document, String path, JsonNode value) {
    List<String> parts = List.of(path.substring(1).split("/"));
    JsonNode parent = document;
    for (String part : parts.subList(0, parts.size() - 1)) {
      parent = parent.isArray() ? parent.get(Integer.parseInt(part)) : parent.get(part);
    }
    String last = parts.get(parts.size() - 1).replace("~1", "/").replace("~0", "~");
    if (parent.isArray()) {
      ((com.fasterxml.jackson.databind.node.ArrayNode) parent).add(value);
    } else {
      ((ObjectNode) parent).set(last, value);
    }
  }

  private KubeScheduler scheduler(Duration reservationTimeout, boolean scalingPods) {
    SchedulerSettings settings =
        Schedulers.reservationPods(
            Schedulers.settings(Duration.ofMillis(200), Optional.empty()), reservationTimeout);
    return cluster.scheduler(
        settings.withGpuSharing(settings.gpuSharing().withScalingPods(scalingPods)));
  }

  private List<JsonNode> reservationPods() {
    return cluster.pods(RESERVATIONS).stream()
        .filter(p -> p.at("/metadata/deletionTimestamp").isMissingNode())
        .toList();
  }

  /** What {@code gantry-device-agent reserve} does: the UUID on its own pod. */
  private void reserve(JsonNode reservation, String uuid) {
    ObjectNode patch = Json.object();
    patch.putObject("metadata").putObject("annotations").put(SharedGpuPods.UUID_ANNOTATION, uuid);
    cluster
        .kube
        .store()
        .patch(
            ResourceKinds.PODS,
            RESERVATIONS,
            reservation.at("/metadata/name").asText(),
            PatchType.MERGE_PATCH,
            Json.write(patch),
            false);
  }

  private long reservationPodsCreated() {
    return cluster.kube.requests().count("create", "/api/v1/namespaces/" + RESERVATIONS + "/pods");
  }

  /** The data of the environment ConfigMap the binder wrote for {@code pod}. */
  private JsonNode environment(JsonNode pod) {
    String prefix =
        pod.at("/metadata/annotations").path(SharedGpuPods.ENV_CONFIGMAP_ANNOTATION).asText();
    return cluster
        .kube
        .store()
        .get(ResourceKinds.CONFIG_MAPS, "ml", SharedGpuPods.envConfigMapName(prefix))
        .orElseThrow()
        .path("data");
  }

  private void assertBoundOnTheReservedGpu(String name) {
    JsonNode pod = cluster.pod("ml", name);
    assertThat(pod.at("/spec/nodeName").asText()).isEqualTo("gpu-0");
    GpuAllocation allocation =
        GpuAllocationJson.read(
            pod.at("/metadata/annotations").path(GpuAllocation.ANNOTATION).asText());
    assertThat(allocation.gpuGroups()).containsExactly("gpu-0-gpu0");
    assertThat(allocation.devices()).hasSize(1);
    assertThat(allocation.devices().get(0).uuid()).isEqualTo(UUID_0);
    assertThat(pod.at("/metadata/labels").path(SharedGpuPods.GPU_GROUP_LABEL).asText())
        .isEqualTo("gpu-0-gpu0");
    String prefix =
        pod.at("/metadata/annotations").path(SharedGpuPods.ENV_CONFIGMAP_ANNOTATION).asText();
    assertThat(pod.at("/spec/containers/0/envFrom/0/configMapRef/name").asText())
        .isEqualTo(SharedGpuPods.envConfigMapName(prefix));
    JsonNode env = environment(pod);
    assertThat(env.path("NVIDIA_VISIBLE_DEVICES").asText()).isEqualTo(UUID_0);
    assertThat(env.path("GPU_PORTION").asText()).isEqualTo("0.50");
    assertThat(env.path("RUNAI_NUM_OF_GPUS").asText()).isEqualTo("0.50");
    // half of the H100's 81559 MiB
    assertThat(env.path("CUDA_DEVICE_MEMORY_LIMIT").asText()).isEqualTo("40779m");
  }

  @Test
  void twoHalvesShareOneReservedGpuWhichGoesWithThem() throws Exception {
    gpuNodeWithInventory("gpu-0", 1);
    queues();
    fractionPod("half-0");
    fractionPod("half-1");
    scheduler(Duration.ofSeconds(30), false);

    await().atMost(WAIT).until(() -> reservationPods().size() == 1);
    JsonNode reservation = reservationPods().get(0);
    assertThat(reservation.at("/spec/nodeName").asText()).isEqualTo("gpu-0");
    assertThat(reservation.at("/spec/containers/0/resources/requests/nvidia.com~1gpu").asText())
        .isEqualTo("1");
    assertThat(reservation.at("/spec/containers/0/resources/limits/nvidia.com~1gpu").asText())
        .isEqualTo("1");
    assertThat(reservation.at("/metadata/labels/app").asText())
        .isEqualTo("kai-resource-reservation");
    assertThat(reservation.at("/metadata/labels/runai-gpu-group").asText()).isEqualTo("gpu-0-gpu0");
    assertThat(cluster.boundPods("ml")).as("nothing is bound before the GPU is known").isZero();

    reserve(reservation, UUID_0);

    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 2);
    assertBoundOnTheReservedGpu("half-0");
    assertBoundOnTheReservedGpu("half-1");
    assertThat(reservationPods()).hasSize(1);
    assertThat(reservationPodsCreated()).isEqualTo(1);

    for (String name : List.of("half-0", "half-1")) {
      cluster.kube.store().delete(ResourceKinds.PODS, "ml", name, DeleteOptions.DEFAULT);
    }
    await().atMost(WAIT).until(() -> cluster.pods(RESERVATIONS).isEmpty());
  }

  @Test
  void aRestartBetweenReservationAndBindEndsTheSameWithoutASecondReservationPod() throws Exception {
    gpuNodeWithInventory("gpu-0", 1);
    queues();
    fractionPod("half-0");
    fractionPod("half-1");
    KubeScheduler first = scheduler(Duration.ofSeconds(30), false);
    await().atMost(WAIT).until(() -> reservationPods().size() == 1);
    first.halt();

    scheduler(Duration.ofSeconds(30), false);
    reserve(reservationPods().get(0), UUID_0);

    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 2);
    assertBoundOnTheReservedGpu("half-0");
    assertBoundOnTheReservedGpu("half-1");
    assertThat(reservationPodsCreated()).isEqualTo(1);
    assertThat(cluster.pods(RESERVATIONS)).hasSize(1);
  }

  @Test
  void aReservationThatNeverReportsTimesOutWithAnEventAndACondition() throws Exception {
    gpuNodeWithInventory("gpu-0", 1);
    queues();
    fractionPod("half-0");
    scheduler(Duration.ofSeconds(2), false);

    String cause =
        " for GPU group gpu-0-gpu0 on node gpu-0 did not report its GPU (annotation"
            + " run.ai/reserve_for_gpu_index) within 2s";
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(cluster.kube.store().list(ResourceKinds.EVENTS, "ml"))
                  .anySatisfy(
                      e -> {
                        assertThat(e.path("reason").asText()).isEqualTo("FailedBinding");
                        assertThat(e.path("type").asText()).isEqualTo("Warning");
                        assertThat(e.at("/involvedObject/name").asText()).isEqualTo("half-0");
                        assertThat(e.path("message").asText()).endsWith(cause);
                      });
              JsonNode scheduled = GangE2eTest.podScheduled(cluster.pod("ml", "half-0"));
              assertThat(scheduled.path("status").asText()).isEqualTo("False");
              assertThat(scheduled.path("reason").asText()).isEqualTo("BindingError");
              assertThat(scheduled.path("message").asText()).endsWith(cause);
            });
    JsonNode pod = cluster.pod("ml", "half-0");
    assertThat(pod.at("/spec/nodeName").asText()).as("nothing half-bound").isEmpty();
    assertThat(pod.at("/metadata/annotations").has(GpuAllocation.ANNOTATION)).isFalse();
  }

  /**
   * An MPS fraction: what the device agent needs to run the GPU's MPS daemon (the allocation in MPS
   * mode with the reserved UUID) and what its container needs to reach it (the pipe directory
   * variable and the GPU's own pipe directory mounted), with no device plugin involved.
   */
  @Test
  void anMpsFractionGetsItsGpusPipeDirectoryAndMpsLimits() throws Exception {
    gpuNodeWithInventory("gpu-0", 1);
    queues();
    fractionPod("mps-half", true);
    scheduler(Duration.ofSeconds(30), false);

    await().atMost(WAIT).until(() -> reservationPods().size() == 1);
    reserve(reservationPods().get(0), UUID_0);
    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 1);

    assertBoundOnTheReservedGpu("mps-half");
    JsonNode pod = cluster.pod("ml", "mps-half");
    GpuAllocation allocation =
        GpuAllocationJson.read(
            pod.at("/metadata/annotations").path(GpuAllocation.ANNOTATION).asText());
    assertThat(allocation.computeMode()).isEqualTo(ComputeMode.MPS);
    JsonNode env = environment(pod);
    assertThat(env.path("CUDA_MPS_PIPE_DIRECTORY").asText()).isEqualTo("/tmp/nvidia-mps");
    assertThat(env.path("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE").asText()).isEqualTo("50");
    assertThat(env.path("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT").asText()).isEqualTo("0=40779M");
    // the kubelet expands $(NVIDIA_VISIBLE_DEVICES) from that ConfigMap: /tmp/nvidia-mps/<uuid>
    assertThat(pod.at("/spec/containers/0/volumeMounts/0/mountPath").asText())
        .isEqualTo("/tmp/nvidia-mps");
    assertThat(pod.at("/spec/containers/0/volumeMounts/0/subPathExpr").asText())
        .isEqualTo("$(NVIDIA_VISIBLE_DEVICES)");
    assertThat(env.path("NVIDIA_VISIBLE_DEVICES").asText()).isEqualTo(UUID_0);
    assertThat(pod.at("/spec/volumes/0/hostPath/path").asText()).isEqualTo("/tmp/nvidia-mps");
  }

  /**
   * A fraction pod created before the admission webhook existed: its containers read no environment
   * ConfigMap, and a CUDA image's NVIDIA_VISIBLE_DEVICES=all would show it every GPU of the node.
   * KAI's binder fails such a bind over and over (its gpusharing PreBind finds no
   * runai/shared-gpu-configmap); Gantry does not schedule it at all: it stays pending with a
   * condition and one event naming the cause and the fix, with no reservation pod, no bind and no
   * rewrite of either cycle after cycle.
   */
  @Test
  void aFractionPodCreatedBeforeTheWebhookStaysPendingToldToBeRecreated() throws Exception {
    gpuNodeWithInventory("gpu-0", 1);
    queues();
    cluster.create(podGroup("ml", "old", "team", 1));
    ObjectNode old = inGroup(pod("ml", "old", TestObjects.SCHEDULER, "1", 0), "old");
    annotations(old).put("gpu-fraction", "0.5");
    cluster.create(old);
    KubeScheduler scheduler = scheduler(Duration.ofSeconds(30), true);

    String message = SharedGpuPods.noEnvironmentMessage();
    assertThat(message)
        .contains("created before the gantry admission webhook")
        .endsWith("; recreate it");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode scheduled = GangE2eTest.podScheduled(cluster.pod("ml", "old"));
              assertThat(scheduled.path("status").asText()).isEqualTo("False");
              assertThat(scheduled.path("reason").asText()).isEqualTo("Unschedulable");
              assertThat(scheduled.path("message").asText()).isEqualTo(message);
            });
    // many 200 ms cycles later: still one condition write and one event, and nothing else tried
    String status = "/api/v1/namespaces/ml/pods/old/status";
    int statusWrites =
        cluster.kube.requests().count("patch", status)
            + cluster.kube.requests().count("update", status);
    assertThat(statusWrites).isPositive();
    Thread.sleep(2000);
    assertThat(
            cluster.kube.requests().count("patch", status)
                + cluster.kube.requests().count("update", status))
        .isEqualTo(statusWrites);
    assertThat(cluster.kube.store().list(ResourceKinds.EVENTS, "ml"))
        .filteredOn(e -> e.at("/involvedObject/name").asText().equals("old"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.path("type").asText()).isEqualTo("Warning");
              assertThat(e.path("reason").asText()).isEqualTo("Unschedulable");
              assertThat(e.path("message").asText()).isEqualTo(message);
            });
    assertThat(cluster.pod("ml", "old").at("/spec/nodeName").asText()).isEmpty();
    assertThat(cluster.pod("ml", "old").at("/metadata/annotations").has(GpuAllocation.ANNOTATION))
        .isFalse();
    assertThat(cluster.kube.requests().count("create", "/api/v1/namespaces/ml/pods/old/binding"))
        .isZero();
    assertThat(reservationPodsCreated()).isZero();
    assertThat(cluster.pods(SCALING)).as("a new node would not help it").isEmpty();
    // gantry explain answers for it with its condition's words
    try (DebugServer ops =
        DebugServer.start(scheduler, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      HttpResponse<String> explained =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + ops.address().getPort()
                                  + "/explain?namespace=ml&name=pod/old&output=json"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      assertThat(explained.statusCode()).as(explained.body()).isEqualTo(200);
      JsonNode answer = JSON.readTree(explained.body());
      assertThat(answer.path("pod").asText()).isEqualTo("ml/old");
      assertThat(answer.path("status").asText())
          .isEqualTo("not scheduled: left out of the scheduling snapshot");
      assertThat(answer.path("reason").asText())
          .isEqualTo(GangE2eTest.podScheduled(cluster.pod("ml", "old")).path("message").asText());
    }

    // recreated through the webhook, it is placed as any other fraction
    cluster.kube.store().delete(ResourceKinds.PODS, "ml", "old", DeleteOptions.DEFAULT);
    fractionPod("renewed");
    await().atMost(WAIT).until(() -> reservationPods().size() == 1);
    reserve(reservationPods().get(0), UUID_0);
    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 1);
  }

  @Test
  void aFractionOnAFullClusterGetsAScalingPodUntilCapacityAppears() throws Exception {
    gpuNodeWithInventory("gpu-0", 1);
    queues();
    // the only GPU is taken by a pod of another scheduler
    cluster.create(onNode(pod("other", "whole", "default-scheduler", "1", 1), "gpu-0"));
    fractionPod("half-0");
    scheduler(Duration.ofSeconds(30), true);

    await().atMost(WAIT).until(() -> cluster.pods(SCALING).size() == 1);
    JsonNode scaling = cluster.pods(SCALING).get(0);
    assertThat(scaling.at("/spec/containers/0/resources/requests/nvidia.com~1gpu").asText())
        .isEqualTo("1");
    assertThat(scaling.at("/spec/nodeName").asText()).isEmpty();
    assertThat(reservationPods()).as("no reservation pod while scaling pods are pending").isEmpty();

    // the autoscaler's node
    gpuNodeWithInventory("gpu-1", 1);

    await().atMost(WAIT).until(() -> cluster.pods(SCALING).isEmpty());
    await().atMost(WAIT).until(() -> reservationPods().size() == 1);
    assertThat(reservationPods().get(0).at("/spec/nodeName").asText()).isEqualTo("gpu-1");
    reserve(reservationPods().get(0), UUID_0);
    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 1);
    assertThat(cluster.pod("ml", "half-0").at("/spec/nodeName").asText()).isEqualTo("gpu-1");
  }
}
