package io.gantry.scheduler.kube.snapshot;

import static io.gantry.scheduler.kube.TestObjects.SCHEDULER;
import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.labelled;
import static io.gantry.scheduler.kube.TestObjects.onNode;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.priorityClass;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.Json;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.TopologyLevel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The snapshot built from informer caches over a fake API server (kai-reference §4.1–4.2). */
class SnapshotBuilderTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private final SnapshotFixture fixture = new SnapshotFixture();
  private final FakeKubeServer kube = fixture.kube;
  private final FakeKubelet kubelet = FakeKubelet.start(kube);
  private final Map<String, InFlightBind> inFlight = new ConcurrentHashMap<>();

  @AfterEach
  void stop() {
    kubelet.close();
    fixture.close();
  }

  private SnapshotBuilder builder(NodePool pool) {
    return builder(pool, UsageSource.NONE);
  }

  private SnapshotBuilder builder(NodePool pool, UsageSource usage) {
    return fixture.builder(
        pool,
        Clock.fixed(NOW, ZoneOffset.UTC),
        key -> Optional.ofNullable(inFlight.get(key)),
        usage);
  }

  @Test
  void theSnapshotCarriesTheUsageSourcesAnswerAtItsTime() {
    ResourceVector used = new ResourceVector(0.25, 0.5, 0);
    List<Instant> askedAt = new ArrayList<>();
    SnapshotBuilder builder =
        builder(
            NodePool.ALL,
            now -> {
              askedAt.add(now);
              return ImmutableSortedMap.of("team-a", used);
            });

    assertThat(builder.build().snapshot().queueUsage()).containsExactly(entry("team-a", used));
    assertThat(askedAt).containsExactly(NOW);
  }

  @Test
  void podsOfOtherSchedulersCountAgainstTheirNodes() {
    kubelet.registerNode(gpuNode("n0", 8));
    kubelet.registerNode(gpuNode("n1", 8));
    TestObjects.create(kube, onNode(pod("default", "web", "default-scheduler", "4", 2), "n0"));
    SnapshotBuilder builder = builder(NodePool.ALL);

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              ImmutableList<NodeInfo> nodes = builder.build().snapshot().nodes();
              assertThat(nodes).extracting(NodeInfo::name).containsExactly("n0", "n1");
              NodeInfo n0 = nodes.get(0);
              assertThat(n0.allocatable().cpuMillis()).isEqualTo(60_000);
              assertThat(n0.allocatable().gpus()).isEqualTo(GpuAmount.ofDevices(6));
              assertThat(n0.maxPods()).isEqualTo(109);
              assertThat(n0.gpuMemoryMib()).isEqualTo(81920);
              assertThat(n0.ready()).isTrue();
              assertThat(nodes.get(1).allocatable().gpus()).isEqualTo(GpuAmount.ofDevices(8));
            });
  }

  @Test
  void podGroupsBecomeJobsWithTheirPodsAndKaiRules() {
    kubelet.registerNode(gpuNode("n0", 8));
    TestObjects.create(kube, priorityClass("build", 100));
    TestObjects.create(kube, queue("root", null, 0));
    TestObjects.create(kube, queue("team", "root", 4));
    TestObjects.create(kube, queue("orphan", "missing", 4));
    var pg = podGroup("ns", "pg", "team", 2);
    ((com.fasterxml.jackson.databind.node.ObjectNode) pg.get("spec"))
        .put("priorityClassName", "build");
    TestObjects.create(kube, pg);
    TestObjects.create(kube, inGroup(pod("ns", "a", SCHEDULER, "1", 1), "pg"));
    TestObjects.create(kube, inGroup(pod("ns", "b", SCHEDULER, "1", 1), "pg"));
    TestObjects.create(kube, inGroup(onNode(pod("ns", "c", SCHEDULER, "1", 1), "n0"), "pg"));
    inFlight.put(
        "ns/b",
        new InFlightBind(
            uid("ns", "b"), "n0", ImmutableList.of(), GpuAmount.ZERO, ImmutableList.of()));
    SnapshotBuilder builder = builder(NodePool.ALL);

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              ClusterSnapshot s = builder.build().snapshot();
              assertThat(s.now()).isEqualTo(NOW);
              assertThat(s.queues()).extracting(QueueInfo::name).containsExactly("root", "team");
              assertThat(s.queues().get(1).gpu().quota()).isEqualTo(4);
              assertThat(s.jobs()).hasSize(1);
              JobInfo job = s.jobs().get(0);
              assertThat(job.id()).isEqualTo("ns/pg");
              assertThat(job.priority()).isEqualTo(100);
              assertThat(job.preemptible()).isFalse();
              assertThat(job.tasks())
                  .extracting(TaskInfo::id, TaskInfo::status, TaskInfo::nodeName)
                  .containsExactlyInAnyOrder(
                      org.assertj.core.groups.Tuple.tuple(
                          "ns/a", TaskStatus.PENDING, Optional.empty()),
                      org.assertj.core.groups.Tuple.tuple(
                          "ns/b", TaskStatus.BINDING, Optional.of("n0")),
                      org.assertj.core.groups.Tuple.tuple(
                          "ns/c", TaskStatus.RUNNING, Optional.of("n0")));
              // a task of the snapshot does not count again as a pod outside it
              assertThat(s.nodes().get(0).allocatable().gpus()).isEqualTo(GpuAmount.ofDevices(8));
            });
  }

  @Test
  void topologiesAndTopologyConstraintsReachTheSnapshot() {
    ObjectNode topology = Json.object();
    topology.put("apiVersion", "kai.scheduler/v1alpha1");
    topology.put("kind", "Topology");
    topology.putObject("metadata").put("name", "dc");
    ArrayNode levels = topology.putObject("spec").putArray("levels");
    levels.addObject().put("nodeLabel", "example.com/rack").put("alias", "rack");
    levels.addObject().put("nodeLabel", "kubernetes.io/hostname");
    ObjectNode broken = Json.object();
    broken.put("apiVersion", "kai.scheduler/v1alpha1");
    broken.put("kind", "Topology");
    broken.putObject("metadata").put("name", "broken");
    ArrayNode brokenLevels = broken.putObject("spec").putArray("levels");
    brokenLevels.addObject().put("nodeLabel", "kubernetes.io/hostname");
    brokenLevels.addObject().put("nodeLabel", "example.com/rack");
    TestObjects.create(kube, topology);
    TestObjects.create(kube, broken);
    TestObjects.create(kube, queue("team", null, 4));
    ObjectNode pg = podGroup("ns", "pg", "team", 1);
    ObjectNode spec = (ObjectNode) pg.get("spec");
    spec.remove("minMember");
    spec.putObject("topologyConstraint").put("topology", "dc").put("requiredTopologyLevel", "rack");
    ArrayNode subGroups = spec.putArray("subGroups");
    subGroups.addObject().put("name", "leader").put("minMember", 1);
    subGroups
        .addObject()
        .put("name", "workers")
        .put("minMember", 2)
        .putObject("topologyConstraint")
        .put("topology", "dc")
        .put("preferredTopologyLevel", "kubernetes.io/hostname");
    TestObjects.create(kube, pg);
    SnapshotBuilder builder = builder(NodePool.ALL);

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              ClusterSnapshot s = builder.build().snapshot();
              assertThat(s.topologies()).containsOnlyKeys("dc");
              assertThat(s.topologies().get("dc").levels())
                  .containsExactly(
                      new TopologyLevel("example.com/rack", Optional.of("rack")),
                      new TopologyLevel("kubernetes.io/hostname", Optional.empty()));
              assertThat(s.jobs()).hasSize(1);
              SubGroupSet root = s.jobs().get(0).root();
              assertThat(root.topologyConstraint())
                  .hasValue(new TopologyConstraint("dc", Optional.of("rack"), Optional.empty()));
              assertThat(root.children())
                  .extracting(SubGroupNode::name, SubGroupNode::topologyConstraint)
                  .containsExactly(
                      org.assertj.core.groups.Tuple.tuple("leader", Optional.empty()),
                      org.assertj.core.groups.Tuple.tuple(
                          "workers",
                          Optional.of(
                              new TopologyConstraint(
                                  "dc", Optional.empty(), Optional.of("kubernetes.io/hostname")))));
            });
  }

  @Test
  void aNodePoolKeepsItsNodesAndPodGroupsOnly() {
    kubelet.registerNode(gpuNode("a", 8));
    kubelet.registerNode(gpuNode("b", 8));
    kube.store()
        .update(
            io.gantry.fakekube.ResourceKinds.NODES,
            "",
            "a",
            labelled(
                kube.store().get(io.gantry.fakekube.ResourceKinds.NODES, "", "a").orElseThrow(),
                "pool",
                "x"));
    TestObjects.create(kube, queue("q", null, 0));
    TestObjects.create(kube, labelled(podGroup("ns", "in", "q", 1), "pool", "x"));
    TestObjects.create(kube, podGroup("ns", "out", "q", 1));
    SnapshotBuilder builder = builder(new NodePool(Optional.of("pool"), Optional.of("x")));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              ClusterSnapshot s = builder.build().snapshot();
              assertThat(s.nodes()).extracting(NodeInfo::name).containsExactly("a");
              assertThat(s.jobs()).extracting(JobInfo::name).containsExactly("in");
            });
  }

  @Test
  void aPodWithABadGpuFractionIsReportedNotScheduled() {
    TestObjects.create(kube, queue("q", null, 0));
    TestObjects.create(kube, podGroup("ns", "pg", "q", 1));
    var bad = inGroup(pod("ns", "p", SCHEDULER, "1", 0), "pg");
    TestObjects.annotations(bad).put("gpu-fraction", "1.5");
    TestObjects.create(kube, bad);
    SnapshotBuilder builder = builder(NodePool.ALL);

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              LiveSnapshot live = builder.build();
              assertThat(live.snapshot().jobs().get(0).tasks()).isEmpty();
              assertThat(live.unschedulablePods())
                  .containsExactly(
                      new LiveSnapshot.Problem(
                          "ns/p",
                          new SnapshotReason.InvalidPod(
                              "annotations.gpu-fraction: gpu-fraction annotation value must be a"
                                  + " positive number smaller than 1.0")));
            });
  }

  private String uid(String namespace, String name) {
    return kube.store()
        .get(io.gantry.fakekube.ResourceKinds.PODS, namespace, name)
        .orElseThrow()
        .path("metadata")
        .path("uid")
        .asText();
  }
}
