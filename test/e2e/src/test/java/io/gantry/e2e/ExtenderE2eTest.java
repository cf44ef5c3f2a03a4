package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.annotations;
import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.cli.KubeCluster;
import io.gantry.extender.AdmissionWebhook;
import io.gantry.extender.Extender;
import io.gantry.extender.ExtenderMetrics;
import io.gantry.extender.ExtenderServer;
import io.gantry.extender.ExtenderSettings;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.PatchType;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.LiveCluster;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP extender against the fake API server, driven as kube-scheduler drives it (filter →
 * prioritize → bind per pod): gangs are bound whole or not at all, also when two race for the same
 * nodes, and two half-GPU pods share one device with their allocation written on them.
 */
class ExtenderE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final E2eCluster cluster = new E2eCluster();
  private LiveCluster live;
  private Extender extender;
  private ExtenderServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    if (extender != null) {
      extender.close();
    }
    if (live != null) {
      live.close();
    }
    cluster.close();
  }

  private KubeSchedulerClient start(int nodes, int gpusPerNode) throws Exception {
    return start(nodes, gpusPerNode, Schedulers.settings(Duration.ofSeconds(1), Optional.empty()));
  }

  private KubeSchedulerClient start(int nodes, int gpusPerNode, SchedulerSettings settings)
      throws Exception {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      cluster.node(gpuNode("gpu-" + i, gpusPerNode));
      names.add("gpu-" + i);
    }
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
    live = LiveCluster.start(KubeClients.forUrl(cluster.kube.url()), settings, Clock.systemUTC());
    KubeCluster kube = new KubeCluster(live, settings.schedulerName(), settings.queueLabelKey());
    extender =
        new Extender(
            kube,
            new SchedulerWiring().cycle(settings.engine()),
            ExtenderSettings.DEFAULTS,
            new ExtenderMetrics(),
            Clock.systemUTC());
    server =
        ExtenderServer.start(
            extender,
            AdmissionWebhook.defaults(kube),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    return new KubeSchedulerClient("http://127.0.0.1:" + server.port() + "/gantry", names);
  }

  private void gang(String name, int members) {
    cluster.create(podGroup("ml", name, "team", members));
    for (int i = 0; i < members; i++) {
      cluster.create(inGroup(pod("ml", name + "-" + i, TestObjects.SCHEDULER, "1", 1), name));
    }
  }

  /** Waits until the extender's cache holds these pods of the PodGroups. */
  private void awaitPods(int count) {
    await()
        .atMost(WAIT)
        .until(
            () ->
                live.ready()
                    && live.snapshot().jobs().stream().mapToInt(j -> j.tasks().size()).sum()
                        == count);
  }

  @Test
  void aFourPodGangIsBoundWhole() throws Exception {
    KubeSchedulerClient scheduler = start(4, 1);
    gang("gang", 4);
    awaitPods(4);
    List<KubeSchedulerClient.Attempt> attempts = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      attempts.add(scheduler.schedule(cluster.pod("ml", "gang-" + i)));
    }
    for (KubeSchedulerClient.Attempt a : attempts) {
      assertThat(a.bind().get()).isEmpty();
    }
    assertThat(cluster.bindings()).isEqualTo(4);
    assertThat(cluster.pods("ml"))
        .extracting(p -> p.at("/spec/nodeName").asText())
        .containsExactlyInAnyOrder("gpu-0", "gpu-1", "gpu-2", "gpu-3");
    assertThat(
            cluster
                .pod("ml", "gang-0")
                .at("/metadata/annotations/gantry.io~1gpu-allocation")
                .asText())
        .contains("\"deviceCount\":1");
  }

  /** Issue 24 item 7: a pod in no PodGroup yet is grouped from the request, then bound. */
  @Test
  void aBarePodWithAQueueLabelAndNoPodGroupIsGroupedAndBound() throws Exception {
    KubeSchedulerClient scheduler = start(2, 1);
    cluster.create(
        TestObjects.labelled(
            pod("ml", "solo", TestObjects.SCHEDULER, "1", 1), "kai.scheduler/queue", "team"));
    await().atMost(WAIT).until(() -> live.ready() && live.podKeyOfUid(uid("solo")).isPresent());

    KubeSchedulerClient.Attempt a = scheduler.schedule(cluster.pod("ml", "solo"));

    assertThat(a.filter().get("NodeNames")).hasSize(1);
    assertThat(a.bind().get()).isEmpty();
    String podGroup = "pg-solo-" + uid("solo");
    assertThat(cluster.pod("ml", "solo").at("/metadata/annotations/pod-group-name").asText())
        .isEqualTo(podGroup);
    assertThat(cluster.kube.store().get(ResourceKinds.POD_GROUPS, "ml", podGroup)).isPresent();
    assertThat(cluster.pod("ml", "solo").at("/spec/nodeName").asText()).startsWith("gpu-");
  }

  @Test
  void aPodWithoutAQueueLabelAndNoPodGroupIsPassedOnEveryNode() throws Exception {
    KubeSchedulerClient scheduler = start(2, 1);
    cluster.create(pod("ml", "plain", TestObjects.SCHEDULER, "1", 1));
    await().atMost(WAIT).until(() -> live.ready() && live.podKeyOfUid(uid("plain")).isPresent());

    KubeSchedulerClient.Attempt a = scheduler.schedule(cluster.pod("ml", "plain"));

    assertThat(a.filter().get("NodeNames")).hasSize(2);
    assertThat(
            cluster.pod("ml", "plain").at("/metadata/annotations/pod-group-name").isMissingNode())
        .isTrue();
  }

  private String uid(String pod) {
    return cluster.pod("ml", pod).at("/metadata/uid").asText();
  }

  @Test
  void aFourPodGangIsNotBoundAtAllWhenThreeFit() throws Exception {
    KubeSchedulerClient scheduler = start(3, 1);
    gang("gang", 4);
    awaitPods(4);
    for (int i = 0; i < 4; i++) {
      KubeSchedulerClient.Attempt a = scheduler.schedule(cluster.pod("ml", "gang-" + i));
      assertThat(a.filter().get("NodeNames")).isEmpty();
      JsonNode unresolvable = a.filter().get("FailedAndUnresolvableNodes");
      assertThat(unresolvable.size()).isEqualTo(3);
      assertThat(unresolvable.get("gpu-0").asText())
          .contains("Resources were found for 3 pods while 4 are required for gang scheduling");
      assertThat(a.bind().get()).isEqualTo("unschedulable");
    }
    assertThat(cluster.bindings()).isZero();
  }

  @Test
  void twoGangsRacingForTheSameNodesNeverBothGetPartialCapacity() throws Exception {
    KubeSchedulerClient scheduler = start(4, 1);
    gang("blue", 4);
    gang("red", 4);
    awaitPods(8);
    ExecutorService racers = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<KubeSchedulerClient.Attempt>>> runs = new ArrayList<>();
      for (String g : List.of("blue", "red")) {
        Callable<List<KubeSchedulerClient.Attempt>> run =
            () -> {
              List<KubeSchedulerClient.Attempt> out = new ArrayList<>();
              for (int i = 0; i < 4; i++) {
                out.add(scheduler.schedule(cluster.pod("ml", g + "-" + i)));
              }
              return out;
            };
        runs.add(racers.submit(run));
      }
      for (Future<List<KubeSchedulerClient.Attempt>> run : runs) {
        for (KubeSchedulerClient.Attempt a : run.get()) {
          a.bind().get();
        }
      }
    } finally {
      racers.shutdownNow();
    }
    long blue = IntStream.range(0, 4).filter(i -> bound("blue-" + i)).count();
    long red = IntStream.range(0, 4).filter(i -> bound("red-" + i)).count();
    assertThat(List.of(blue, red)).containsExactlyInAnyOrder(4L, 0L);
    assertThat(cluster.bindings()).isEqualTo(4);
  }

  private boolean bound(String pod) {
    return !cluster.pod("ml", pod).at("/spec/nodeName").asText().isEmpty();
  }

  @Test
  void twoHalvesAreBoundWithTheirAllocationOnOneSharedDevice() throws Exception {
    KubeSchedulerClient scheduler = start(1, 1);
    for (String name : List.of("half-a", "half-b")) {
      cluster.create(podGroup("ml", name, "team", 1));
      var pod = inGroup(pod("ml", name, TestObjects.SCHEDULER, "1", 0), name);
      annotations(pod).put("gpu-fraction", "0.5");
      cluster.create(pod);
    }
    awaitPods(2);
    for (String name : List.of("half-a", "half-b")) {
      KubeSchedulerClient.Attempt a = scheduler.schedule(cluster.pod("ml", name));
      assertThat(a.bind().get()).isEmpty();
    }
    JsonNode a = allocation("half-a");
    JsonNode b = allocation("half-b");
    assertThat(a.get("node").asText()).isEqualTo("gpu-0");
    assertThat(a.get("portion").asText()).isEqualTo("0.50");
    assertThat(a.get("gpuGroups")).hasSize(1);
    assertThat(b.get("gpuGroups")).isEqualTo(a.get("gpuGroups"));
    assertThat(cluster.bindings()).isEqualTo(2);
  }

  @Test
  void withReservationPodsABindWaitsForTheReservedGpuAndThenBindsOnIt() throws Exception {
    KubeSchedulerClient scheduler =
        start(
            1,
            1,
            Schedulers.reservationPods(
                Schedulers.settings(Duration.ofSeconds(1), Optional.empty()),
                Duration.ofSeconds(30)));
    ObjectNode inventory = Json.object();
    inventory
        .putObject("metadata")
        .putObject("annotations")
        .put(InventoryAnnotation.KEY, TestObjects.gpuInventory(1, List.of(), List.of()));
    cluster
        .kube
        .store()
        .patch(
            ResourceKinds.NODES, "", "gpu-0", PatchType.MERGE_PATCH, Json.write(inventory), false);
    cluster.create(podGroup("ml", "half", "team", 1));
    var pod = inGroup(pod("ml", "half", TestObjects.SCHEDULER, "1", 0), "half");
    annotations(pod).put("gpu-fraction", "0.5");
    // as the admission webhook names it (a fraction pod it never saw is not scheduled)
    annotations(pod).put(SharedGpuPods.ENV_CONFIGMAP_ANNOTATION, "half-0000000-shared-gpu");
    cluster.create(pod);
    awaitPods(1);

    // kube-scheduler's bind waits seconds, not for a pod's start: it fails, saying why
    assertThat(scheduler.schedule(cluster.pod("ml", "half")).bind().get())
        .contains("waiting for reservation pod gantry-resource-reservation/gpu-reservation-");
    List<JsonNode> reservations = cluster.pods("gantry-resource-reservation");
    assertThat(reservations).hasSize(1);
    ObjectNode reported = Json.object();
    reported
        .putObject("metadata")
        .putObject("annotations")
        .put(SharedGpuPods.UUID_ANNOTATION, "GPU-00000000-0000-0000-0000-000000000000");
    cluster
        .kube
        .store()
        .patch(
            ResourceKinds.PODS,
            "gantry-resource-reservation",
            reservations.get(0).at("/metadata/name").asText(),
            PatchType.MERGE_PATCH,
            Json.write(reported),
            false);

    // kube-scheduler's next attempt carries on and binds on the reserved GPU
    assertThat(scheduler.schedule(cluster.pod("ml", "half")).bind().get()).isEmpty();
    assertThat(allocation("half").at("/devices/0/uuid").asText())
        .isEqualTo("GPU-00000000-0000-0000-0000-000000000000");
    assertThat(cluster.pods("gantry-resource-reservation")).hasSize(1);
  }

  @Test
  void withReservationPodsAFractionPodCreatedBeforeTheWebhookPassesNoNodeSayingWhy()
      throws Exception {
    KubeSchedulerClient scheduler =
        start(
            1,
            1,
            Schedulers.reservationPods(
                Schedulers.settings(Duration.ofSeconds(1), Optional.empty()),
                Duration.ofSeconds(30)));
    cluster.create(podGroup("ml", "old", "team", 1));
    var pod = inGroup(pod("ml", "old", TestObjects.SCHEDULER, "1", 0), "old");
    annotations(pod).put("gpu-fraction", "0.5");
    cluster.create(pod);
    // the extender's cache holds it, and its snapshot leaves it out
    await()
        .atMost(WAIT)
        .until(
            () ->
                live.ready()
                    && live.snapshot().jobs().size() == 1
                    && live.leftOut("ml/old").isPresent());

    KubeSchedulerClient.Attempt attempt = scheduler.schedule(cluster.pod("ml", "old"));

    assertThat(attempt.bind().get()).isEqualTo("unschedulable");
    assertThat(attempt.filter().at("/FailedAndUnresolvableNodes/gpu-0").asText())
        .isEqualTo(SharedGpuPods.noEnvironmentMessage());
    assertThat(cluster.pods("gantry-resource-reservation")).isEmpty();
    assertThat(cluster.pod("ml", "old").at("/spec/nodeName").asText()).isEmpty();
  }

  private JsonNode allocation(String pod) throws Exception {
    String json =
        cluster.pod("ml", pod).at("/metadata/annotations/gantry.io~1gpu-allocation").asText();
    assertThat(json).as(pod + " allocation").isNotEmpty();
    return JSON.readTree(json);
  }
}
