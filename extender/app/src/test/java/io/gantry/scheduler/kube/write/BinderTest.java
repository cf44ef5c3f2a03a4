package io.gantry.scheduler.kube.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.lease.Leadership;
import io.gantry.scheduler.kube.ops.SchedulerMetrics;
import io.gantry.scheduler.kube.snapshot.InFlightBind;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.model.TaskInfo;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Binds and evictions against the fake API server: idempotence, failure, the eviction order. */
class BinderTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final FakeKubelet kubelet = FakeKubelet.start(kube);
  private final ClusterInformers cache = new ClusterInformers(KubeClients.forUrl(kube.url()));
  private final KubeWriter writer = new KubeWriter(KubeClients.forUrl(kube.url()));
  private final ScheduledExecutorService pool = Executors.newScheduledThreadPool(2);
  private final EventRecorder events =
      new EventRecorder(writer, "gantry-scheduler", Clock.systemUTC(), 1000);
  private final Binder binder =
      new Binder(
          writer,
          cache,
          Leadership.ALWAYS,
          events,
          new SchedulerMetrics(),
          pool,
          Clock.systemUTC(),
          new Backoff(2, Duration.ofMillis(10), Duration.ofMillis(10)),
          // Gantry's device plugin: the node resolves the GPU groups
          Optional.empty());

  @BeforeEach
  void start() {
    kubelet.registerNode(TestObjects.gpuNode("n1", 8));
    kubelet.registerNode(TestObjects.gpuNode("n2", 8));
  }

  @AfterEach
  void stop() {
    events.close();
    pool.shutdownNow();
    cache.close();
    kubelet.close();
    kube.close();
  }

  private PodFacts cachedPod(String name) {
    cache.start();
    await().atMost(WAIT).until(() -> cache.hasSynced() && cache.pod("ns/" + name) != null);
    V1Pod pod = cache.pod("ns/" + name);
    return PodFacts.of(pod);
  }

  private static TaskInfo task(PodFacts p) {
    return new TaskInfo(
        p.key(),
        p.name(),
        p.name(),
        p.namespace(),
        "ns/pg",
        "default",
        p.request(),
        p.gpuSharing(),
        io.gantry.scheduler.model.TaskStatus.PENDING,
        java.util.Optional.empty(),
        ImmutableList.of(),
        GpuAmount.ZERO,
        java.util.OptionalInt.empty(),
        p.labels(),
        p.placement(),
        0);
  }

  private static BindDecision decision(PodFacts p, String node) {
    return new BindDecision(p.key(), node, ImmutableList.of(), GpuAmount.ZERO);
  }

  @Test
  void aWholeGpuBindRecordsTheDevicesTheEngineChose() {
    kube.store()
        .create(
            ResourceKinds.PODS, "ns", TestObjects.pod("ns", "p", TestObjects.SCHEDULER, "1", 2));
    PodFacts p = cachedPod("p");

    binder.submit(
        new BindDecision(
            p.key(),
            "n1",
            ImmutableList.of(),
            GpuAmount.ZERO,
            ImmutableList.of(),
            ImmutableList.of(5, 4)),
        p,
        task(p));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        kube.store()
                            .get(ResourceKinds.PODS, "ns", "p")
                            .orElseThrow()
                            .at("/metadata/annotations/gantry.io~1gpu-allocation")
                            .asText())
                    .isEqualTo(
                        "{\"version\":1,\"node\":\"n1\",\"deviceCount\":2,\"portion\":\"1.00\","
                            + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],"
                            + "\"chosenDevices\":[4,5],\"devices\":[]}"));
  }

  @Test
  void aBindWritesTheGpuAllocationThenTheBindingAndStaysInFlightUntilTheCacheShowsIt() {
    kube.store()
        .create(
            ResourceKinds.PODS, "ns", TestObjects.pod("ns", "p", TestObjects.SCHEDULER, "1", 2));
    PodFacts p = cachedPod("p");

    binder.submit(decision(p, "n1"), p, task(p));

    assertThat(binder.inFlight("ns/p")).map(InFlightBind::node).contains("n1");
    await()
        .atMost(WAIT)
        .until(
            () ->
                !kube.store()
                    .get(ResourceKinds.PODS, "ns", "p")
                    .orElseThrow()
                    .at("/spec/nodeName")
                    .asText()
                    .isEmpty());
    JsonNode pod = kube.store().get(ResourceKinds.PODS, "ns", "p").orElseThrow();
    assertThat(pod.at("/spec/nodeName").asText()).isEqualTo("n1");
    assertThat(pod.at("/metadata/annotations/gantry.io~1gpu-allocation").asText())
        .isEqualTo(
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":2,\"portion\":\"1.00\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],\"devices\":[]}");
    await()
        .atMost(WAIT)
        .until(
            () -> {
              binder.prune();
              return binder.inFlight("ns/p").isEmpty();
            });
    assertThat(kube.requests().count("create", "/api/v1/namespaces/ns/pods/p/binding"))
        .isEqualTo(1);
  }

  @Test
  void aPodAlreadyBoundToTheChosenNodeCountsAsBound() {
    kube.store()
        .create(
            ResourceKinds.PODS, "ns", TestObjects.pod("ns", "p", TestObjects.SCHEDULER, "1", 0));
    PodFacts p = cachedPod("p");
    kube.store().bind("ns", "p", Json.parseObject("{\"target\":{\"name\":\"n1\"}}"));

    binder.submit(decision(p, "n1"), p, task(p));

    await()
        .atMost(WAIT)
        .until(
            () -> {
              binder.prune();
              return binder.inFlight("ns/p").isEmpty();
            });
    assertThat(kube.store().list(ResourceKinds.EVENTS, "ns"))
        .extracting(e -> e.path("reason").asText())
        .doesNotContain("FailedBinding");
  }

  @Test
  void aBindThatFailsEmitsFailedBindingAndLeavesThePodPending() {
    kube.store()
        .create(
            ResourceKinds.PODS, "ns", TestObjects.pod("ns", "p", TestObjects.SCHEDULER, "1", 0));
    PodFacts p = cachedPod("p");
    kube.store().bind("ns", "p", Json.parseObject("{\"target\":{\"name\":\"n2\"}}"));

    binder.submit(decision(p, "n1"), p, task(p));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(binder.inFlight("ns/p")).isEmpty();
              assertThat(kube.store().list(ResourceKinds.EVENTS, "ns"))
                  .anySatisfy(
                      e -> {
                        assertThat(e.path("reason").asText()).isEqualTo("FailedBinding");
                        assertThat(e.path("type").asText()).isEqualTo("Warning");
                        assertThat(e.path("message").asText())
                            .startsWith("Failed to bind pod ns/p to node n1: ");
                      });
            });
    JsonNode condition =
        kube.store().get(ResourceKinds.PODS, "ns", "p").orElseThrow().at("/status/conditions");
    assertThat(condition.toString()).contains("BindingError");
  }

  @Test
  void anEvictionMarksTheDisruptionTargetThenDeletesThePod() {
    kube.store()
        .create(
            ResourceKinds.PODS,
            "ns",
            TestObjects.onNode(
                TestObjects.pod("ns", "victim", TestObjects.SCHEDULER, "1", 0), "n1"));
    PodFacts p = cachedPod("victim");
    Evictor evictor =
        new Evictor(writer, Leadership.ALWAYS, pool, Clock.systemUTC(), Backoff.DEFAULT);

    evictor.submit(
        new EvictDecision(
            p.key(),
            "n1",
            "reclaimed by ns/other",
            new EvictionCause("reclaim", Optional.of("ns/other"), 1)),
        p);

    await()
        .atMost(WAIT)
        .until(() -> kube.store().get(ResourceKinds.PODS, "ns", "victim").isEmpty());
    assertThat(kube.requests().count("patch", "/api/v1/namespaces/ns/pods/victim/status"))
        .isEqualTo(1);
    assertThat(kube.requests().count("delete", "/api/v1/namespaces/ns/pods/victim")).isEqualTo(1);
  }
}
