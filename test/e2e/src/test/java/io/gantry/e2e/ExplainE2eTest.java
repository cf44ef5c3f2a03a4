package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.onNode;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.priorityClass;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.cli.GantryCli;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.kube.KubeScheduler;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.ops.DebugServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code gantry explain} against the fake API server, for the four situations users ask about:
 * through the scheduler's {@code /explain} ({@code --scheduler}), and by reading the cluster
 * through a kubeconfig. The scheduler stands by (another replica holds the lease), so the cluster
 * stays as the test built it.
 */
class ExplainE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final E2eCluster cluster = new E2eCluster();
  private final HttpClient http = HttpClient.newHttpClient();
  private DebugServer ops;

  @TempDir Path dir;

  @AfterEach
  void stop() {
    if (ops != null) {
      ops.close();
    }
    cluster.close();
  }

  private record Cli(int code, String out, String err) {}

  private static Cli gantry(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = GantryCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new Cli(code, out.toString(), err.toString());
  }

  /** Starts a standing-by scheduler and its endpoints once the objects are in. */
  private String standingBy() {
    return started(SchedulerConfig.DEFAULTS, true);
  }

  /**
   * Starts a scheduler with {@code engine} and its endpoints once the objects are in; with {@code
   * standby} it must stand by, and the cluster stays as built only while it does (the lease it
   * waits for is renewed on its own clock, so a slow start may make it lead).
   */
  private String started(SchedulerConfig engine, boolean standby) {
    ObjectNode lease = Json.object();
    lease.put("apiVersion", "coordination.k8s.io/v1").put("kind", "Lease");
    lease.putObject("metadata").put("name", "gantry-scheduler").put("namespace", "gantry-system");
    lease
        .putObject("spec")
        .put("holderIdentity", "another-replica")
        .put("leaseDurationSeconds", 3600)
        .put("renewTime", Instant.now().toString());
    cluster.kube.store().create(ResourceKinds.LEASES, "gantry-system", lease);
    KubeScheduler scheduler =
        cluster.scheduler(
            Schedulers.settings(Duration.ofMillis(200), Optional.of("replica"), engine));
    try {
      ops =
          DebugServer.start(scheduler, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    await().atMost(WAIT).until(scheduler::ready);
    if (standby) {
      assertThat(scheduler.isLeader()).isFalse();
    }
    return "http://127.0.0.1:" + ops.address().getPort();
  }

  private JsonNode explain(String url, String namespace, String job) throws Exception {
    Cli run = gantry("explain", "--scheduler", url, "-n", namespace, job, "--output", "json");
    assertThat(run.code()).as(run.err()).isZero();
    return JSON.readTree(run.out());
  }

  private void group(String ns, String name, String queue, int minMember, int pods, int gpus) {
    ObjectNode pg = podGroup(ns, name, queue, minMember);
    ((ObjectNode) pg.get("spec")).put("priorityClassName", "train");
    cluster.create(pg);
    for (int i = 0; i < pods; i++) {
      cluster.create(inGroup(pod(ns, name + "-" + i, TestObjects.SCHEDULER, "1", gpus), name));
    }
  }

  private void running(String ns, String name, String queue, String node, int gpus) {
    ObjectNode pg = podGroup(ns, name, queue, 1);
    ((ObjectNode) pg.get("spec")).put("priorityClassName", "train");
    cluster.create(pg);
    cluster.create(
        onNode(inGroup(pod(ns, name + "-0", TestObjects.SCHEDULER, "1", gpus), name), node));
    await()
        .atMost(WAIT)
        .until(() -> cluster.pod(ns, name + "-0").at("/status/phase").asText().equals("Running"));
  }

  private static List<String> texts(JsonNode array, String field) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.path(field).asText()));
    return out;
  }

  @Test
  void aGangThatCannotFitThroughTheSchedulerAndThroughAKubeconfig() throws Exception {
    cluster.create(priorityClass("train", 50));
    cluster.node(gpuNode("gpu-0", 4));
    cluster.node(gpuNode("gpu-1", 4));
    cluster.create(queue("team-a", null, 8));
    group("a", "train", "team-a", 3, 3, 4);
    String url = standingBy();

    JsonNode e = explain(url, "a", "pod/train-0");
    assertThat(e.path("job").asText()).isEqualTo("a/train");
    assertThat(e.at("/gang/minMember").asLong()).isEqualTo(3);
    assertThat(e.at("/gang/membersFit").asLong()).isEqualTo(2);
    assertThat(e.at("/holdBack/kind").asText()).isEqualTo("NODES");
    assertThat(e.at("/reasons/0/reason").asText())
        .isEqualTo("node(s) didn't have enough resources: GPUs");
    assertThat(e.at("/reasons/0/nodes").asLong()).isEqualTo(2);

    Path kubeconfig = kubeconfig();
    Cli local =
        gantry(
            "explain",
            "--kubeconfig",
            kubeconfig.toString(),
            "-n",
            "a",
            "train",
            "--output",
            "json");
    assertThat(local.code()).as(local.err()).isZero();
    JsonNode here = JSON.readTree(local.out());
    assertThat(here.path("gang")).isEqualTo(e.path("gang"));
    assertThat(here.path("holdBack")).isEqualTo(e.path("holdBack"));
    assertThat(here.path("reasons")).isEqualTo(e.path("reasons"));
  }

  /** A kubeconfig naming the fake API server. */
  private Path kubeconfig() throws java.io.IOException {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster: {server: \""
            + cluster.kube.url()
            + "\"}\nusers:\n- name: me\n  user: {}\ncontexts:\n- name: fake\n  context: {cluster:"
            + " fake, user: me}\ncurrent-context: fake\n",
        StandardCharsets.UTF_8);
    return kubeconfig;
  }

  /**
   * A pod whose SubGroup label names no SubGroup of its PodGroup: the snapshot leaves it out, and
   * explain says so with the reason its condition carries, through the scheduler and a kubeconfig.
   */
  @Test
  void aPodTheSnapshotLeavesOutThroughTheSchedulerAndThroughAKubeconfig() throws Exception {
    cluster.create(priorityClass("train", 50));
    cluster.node(gpuNode("gpu-0", 4));
    cluster.create(queue("team-a", null, 8));
    group("a", "train", "team-a", 1, 1, 1);
    cluster.create(
        TestObjects.labelled(
            inGroup(pod("a", "stray", TestObjects.SCHEDULER, "1", 1), "train"),
            "kai.scheduler/subgroup-name",
            "nope"));
    String url = standingBy();
    String reason =
        "SubGroup \"nope\" of label kai.scheduler/subgroup-name does not exist in PodGroup train";

    JsonNode e = explain(url, "a", "pod/stray");
    assertThat(e.path("pod").asText()).isEqualTo("a/stray");
    assertThat(e.path("status").asText())
        .isEqualTo("not scheduled: left out of the scheduling snapshot");
    assertThat(e.path("reason").asText()).isEqualTo(reason);

    Cli text = gantry("explain", "--scheduler", url, "pod/stray");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .isEqualTo(
            "Pod a/stray: not scheduled: left out of the scheduling snapshot\nReason: "
                + reason
                + "\n");

    Cli local =
        gantry(
            "explain",
            "--kubeconfig",
            kubeconfig().toString(),
            "-n",
            "a",
            "stray",
            "--output",
            "json");
    assertThat(local.code()).as(local.err()).isZero();
    assertThat(JSON.readTree(local.out())).isEqualTo(e);

    // the job the pod names is explained as before, without it
    assertThat(explain(url, "a", "train").path("job").asText()).isEqualTo("a/train");
  }

  @Test
  void aJobOverItsQueuesLimit() throws Exception {
    cluster.create(priorityClass("train", 50));
    cluster.node(gpuNode("gpu-0", 8));
    ObjectNode q = queue("team-a", null, 2);
    ((ObjectNode) q.at("/spec/resources/gpu")).put("limit", 4);
    cluster.create(q);
    running("a", "running", "team-a", "gpu-0", 2);
    group("a", "big", "team-a", 1, 1, 4);
    String url = standingBy();

    JsonNode e = explain(url, "a", "big");
    assertThat(e.at("/holdBack/kind").asText()).isEqualTo("LIMIT");
    assertThat(e.at("/holdBack/queue").asText()).isEqualTo("team-a");
    assertThat(e.at("/holdBack/sentence").asText())
        .isEqualTo(
            "team-a quota has reached the allowable limit of GPUs. Limit is 4 GPUs, currently 2"
                + " GPUs allocated and workload requested 4 GPUs");
    assertThat(e.at("/queues/0/limit/gpus").asDouble()).isEqualTo(4);
    assertThat(e.at("/queues/0/allocated/gpus").asDouble()).isEqualTo(2);
  }

  @Test
  void aJobBehindAnotherQueueInFairShareOrderAndTheJobOrderEndpoint() throws Exception {
    cluster.create(priorityClass("train", 50));
    cluster.node(gpuNode("gpu-0", 8));
    cluster.create(queue("team-a", null, 4));
    cluster.create(queue("team-b", null, 4));
    running("b", "b-running", "team-b", "gpu-0", 6);
    group("b", "b-more", "team-b", 1, 1, 2);
    group("a", "a-job", "team-a", 1, 1, 2);
    String url = standingBy();

    JsonNode e = explain(url, "b", "b-more");
    assertThat(e.path("globalPosition").asInt()).isEqualTo(2);
    assertThat(e.path("queuePosition").asInt()).isEqualTo(1);
    assertThat(e.at("/holdBack/kind").asText()).isEqualTo("FAIR_SHARE");
    assertThat(e.at("/holdBack/queue").asText()).isEqualTo("team-b");

    HttpResponse<String> order =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/get-job-order")).build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(order.statusCode()).isEqualTo(200);
    assertThat(order.headers().firstValue("Content-Type")).contains("application/json");
    JsonNode kai = JSON.readTree(order.body());
    assertThat(texts(kai.path("global_order"), "id")).containsExactly("a/a-job", "b/b-more");
    assertThat(texts(kai.at("/queue_order/team-b"), "id")).containsExactly("b/b-more");
    assertThat(kai.at("/global_order/0/priority").asInt()).isEqualTo(50);

    Cli queues = gantry("queues", "--scheduler", url);
    assertThat(queues.code()).as(queues.err()).isZero();
    assertThat(queues.out()).contains("team-a").contains("a/a-job").contains("b/b-more");
  }

  @Test
  void aJobReclaimWouldPlace() throws Exception {
    cluster.create(priorityClass("train", 50));
    cluster.node(gpuNode("gpu-0", 8));
    cluster.create(queue("team-a", null, 4));
    cluster.create(queue("team-b", null, 4));
    for (int i = 0; i < 8; i++) {
      running("a", "a" + i, "team-a", "gpu-0", 1);
    }
    group("b", "b-train", "team-b", 1, 1, 2);
    // allocate alone changes nothing here (no GPU is free), leading or not; reclaim is only asked
    String url =
        started(
            new SchedulerConfig(
                ImmutableList.of("allocate"), ImmutableSortedMap.of(), Placement.DEFAULTS),
            false);

    JsonNode e = explain(url, "b", "pod/b-train-0");
    JsonNode reclaim = e.at("/evictions/0");
    assertThat(reclaim.path("action").asText()).isEqualTo("reclaim");
    assertThat(reclaim.path("hypothetical").asBoolean()).isTrue();
    assertThat(reclaim.path("placesJob").asBoolean()).isTrue();
    assertThat(reclaim.path("victims")).hasSize(2);
    assertThat(texts(reclaim.path("victims"), "job")).allMatch(j -> j.startsWith("a/a"));
    // nothing was applied: every pod of team A still runs
    for (int i = 0; i < 8; i++) {
      assertThat(cluster.pod("a", "a" + i + "-0").at("/metadata/deletionTimestamp").isMissingNode())
          .isTrue();
    }

    Cli missing = gantry("explain", "--scheduler", url, "-n", "b", "pod/nope");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err())
        .isEqualTo(
            "error: no job or pod pod/nope in namespace b among the jobs this scheduler"
                + " schedules\n");
  }
}
