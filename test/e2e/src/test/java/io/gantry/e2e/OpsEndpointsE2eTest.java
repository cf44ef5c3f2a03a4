package io.gantry.e2e;

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
import io.gantry.cli.GantryCli;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.KubeScheduler;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.ops.DebugServer;
import io.gantry.scheduler.kube.ops.OpsServer;
import java.io.ByteArrayInputStream;
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
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The scheduler's HTTP endpoints against a fake cluster: {@code /snapshot} (on the debug address,
 * not the ops port) replays in {@code gantry simulate} to the decisions the scheduler then makes,
 * and {@code /metrics} shows the cycle latency histogram and each queue's fair share after a cycle.
 */
class OpsEndpointsE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final E2eCluster cluster = new E2eCluster();
  private final HttpClient http = HttpClient.newHttpClient();
  private OpsServer ops;
  private DebugServer debug;

  @TempDir Path dir;

  @AfterEach
  void stop() {
    if (ops != null) {
      ops.close();
    }
    if (debug != null) {
      debug.close();
    }
    cluster.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return get(ops.port(), path);
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private void group(String ns, String name, String queue, int minMember, int pods, int gpus) {
    cluster.create(podGroup(ns, name, queue, minMember));
    for (int i = 0; i < pods; i++) {
      cluster.create(inGroup(pod(ns, name + "-" + i, TestObjects.SCHEDULER, "2", gpus), name));
    }
  }

  @Test
  void aSnapshotReplaysInGantrySimulateToTheDecisionsTheSchedulerMakes() throws Exception {
    cluster.node(gpuNode("gpu-0", 8));
    cluster.node(gpuNode("gpu-1", 8));
    cluster.node(gpuNode("gpu-2", 4));
    cluster.create(queue("org", null, 0));
    cluster.create(queue("team-a", "org", 4));
    cluster.create(queue("team-b", "org", 2));
    // another scheduler's pod holds two GPUs of gpu-0; two pods of ours already run on gpu-1
    cluster.create(onNode(pod("web", "other", "default-scheduler", "4", 2), "gpu-0"));
    cluster.create(podGroup("a", "running", "team-a", 2));
    for (int i = 0; i < 2; i++) {
      cluster.create(
          onNode(
              inGroup(pod("a", "running-" + i, TestObjects.SCHEDULER, "2", 2), "running"),
              "gpu-1"));
    }
    await()
        .atMost(WAIT)
        .until(() -> cluster.pod("a", "running-1").at("/status/phase").asText().equals("Running"));
    group("a", "gang", "team-a", 3, 3, 2);
    group("a", "single", "team-a", 1, 1, 1);
    group("b", "wide", "team-b", 2, 2, 4);
    group("b", "small", "team-b", 1, 2, 1);
    group("b", "huge", "team-b", 1, 1, 16);
    ObjectNode half = inGroup(pod("b", "half", TestObjects.SCHEDULER, "1", 0), "half");
    TestObjects.annotations(half).put("gpu-fraction", "0.5");
    // a container's env is no part of the snapshot
    ((ObjectNode) half.at("/spec/containers/0"))
        .putArray("env")
        .addObject()
        .put("name", "API_TOKEN")
        .put("value", "s3cr3t-token-value");
    cluster.create(podGroup("b", "half", "team-b", 1));
    cluster.create(half);
    // a lease someone else holds keeps this replica standing by while the snapshot is taken
    ObjectNode lease = Json.object();
    lease.put("apiVersion", "coordination.k8s.io/v1").put("kind", "Lease");
    lease.putObject("metadata").put("name", "gantry-scheduler").put("namespace", "gantry-system");
    lease
        .putObject("spec")
        .put("holderIdentity", "another-replica")
        .put("leaseDurationSeconds", 3)
        .put("renewTime", Instant.now().toString());
    cluster.kube.store().create(ResourceKinds.LEASES, "gantry-system", lease);
    KubeScheduler scheduler =
        cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.of("replica")));
    ops = OpsServer.start(scheduler, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    debug = DebugServer.start(scheduler, DebugServer.parseAddress("127.0.0.1:0"));
    await().atMost(WAIT).until(scheduler::ready);
    assertThat(scheduler.isLeader()).isFalse();

    assertThat(get("/snapshot").statusCode()).isEqualTo(404);
    HttpResponse<String> snapshot = get(debug.address().getPort(), "/snapshot");
    assertThat(snapshot.statusCode()).isEqualTo(200);
    assertThat(snapshot.body()).contains("name: half").doesNotContain("s3cr3t-token-value");
    Path file = dir.resolve("snapshot.yaml");
    Files.writeString(file, snapshot.body(), StandardCharsets.UTF_8);
    Map<String, String> simulated = simulate(file);
    assertThat(simulated).as(snapshot.body()).isNotEmpty().doesNotContainKey("b/huge-0");
    // KAI's /get-snapshot, read by the same command, and fetched by gantry snapshot export
    HttpResponse<byte[]> kai =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + debug.address().getPort() + "/get-snapshot"))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(kai.statusCode()).isEqualTo(200);
    assertThat(kai.headers().firstValue("Content-Type")).contains("application/zip");
    Path zip = Files.write(dir.resolve("snapshot.zip"), kai.body());
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(kai.body()))) {
      assertThat(in.getNextEntry().getName()).isEqualTo("snapshot.json");
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(json).contains("\"name\":\"API_TOKEN\"").doesNotContain("s3cr3t-token-value");
    }
    assertThat(simulate(zip)).isEqualTo(simulated);
    Path exported = dir.resolve("exported.zip");
    StringWriter exportErr = new StringWriter();
    CommandLine export = GantryCli.commandLine();
    export.setOut(new PrintWriter(new StringWriter(), true));
    export.setErr(new PrintWriter(exportErr, true));
    assertThat(
            export.execute(
                "snapshot",
                "export",
                "--scheduler",
                "http://127.0.0.1:" + debug.address().getPort(),
                "-f",
                exported.toString()))
        .as(exportErr.toString())
        .isZero();
    assertThat(simulate(exported)).isEqualTo(simulated);

    await().atMost(WAIT).until(scheduler::isLeader);
    await().atMost(WAIT).untilAsserted(() -> assertThat(bound("a", "b")).isEqualTo(simulated));
  }

  /** Pod (namespace/name) → node of every task {@code gantry simulate} binds. */
  private static Map<String, String> simulate(Path file) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = GantryCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute("simulate", "--output", "json", file.toString());
    assertThat(code).as(err.toString()).isZero();
    Map<String, String> binds = new TreeMap<>();
    for (JsonNode t : JSON.readTree(out.toString()).path("tasks")) {
      if (t.path("status").asText().equals("Binding")) {
        String ns = t.path("job").asText().split("/", 2)[0];
        binds.put(ns + "/" + t.path("task").asText(), t.path("node").asText());
      }
    }
    return binds;
  }

  /** Pods of these namespaces bound since the snapshot: the ones that were pending then. */
  private Map<String, String> bound(String... namespaces) {
    Map<String, String> out = new TreeMap<>();
    for (String ns : namespaces) {
      for (JsonNode p : cluster.pods(ns)) {
        String name = p.at("/metadata/name").asText();
        String node = p.at("/spec/nodeName").asText();
        if (!node.isEmpty() && !name.startsWith("running-")) {
          out.put(ns + "/" + name, node);
        }
      }
    }
    return out;
  }

  @Test
  void metricsShowTheCycleLatencyAndEachQueuesFairShare() throws Exception {
    cluster.node(gpuNode("gpu-0", 8));
    cluster.create(queue("org", null, 0));
    cluster.create(queue("team-a", "org", 0));
    cluster.create(queue("team-b", "org", 0));
    for (int i = 0; i < 8; i++) {
      group("a", "a" + i, "team-a", 1, 1, 1);
      group("b", "b" + i, "team-b", 1, 1, 1);
    }
    KubeScheduler scheduler =
        cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));
    ops = OpsServer.start(scheduler, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));

    await().atMost(WAIT).until(() -> get("/readyz").statusCode() == 200);
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
    assertThat(get("/nothing").statusCode()).isEqualTo(404);
    await().atMost(WAIT).until(() -> scheduler.cycles() >= 1);

    String metrics = get("/metrics").body();
    assertThat(metrics)
        .contains("# TYPE gantry_e2e_scheduling_latency_milliseconds gauge")
        .contains("gantry_queue_fair_share_gpu{" + queueLabels("team-a") + "} 4.0")
        .contains("gantry_queue_fair_share_gpu{" + queueLabels("team-b") + "} 4.0")
        .contains("gantry_queue_fair_share_cpu_cores{" + queueLabels("team-a") + "}")
        .contains("gantry_queue_fair_share_memory_gb{" + queueLabels("team-a") + "}")
        .contains("gantry_podgroups_acted_on_by_action{action=\"allocate\"}")
        .contains("jvm_memory_used_bytes");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(get("/metrics").body())
                    .contains("gantry_queue_allocated_gpus{" + queueLabels("team-a") + "} 4.0")
                    .contains("gantry_schedule_attempts_total{result=\"scheduled\"}")
                    .contains("gantry_task_bind_latency_milliseconds_count"));
  }

  /** KAI's three queue labels, in the exposition's (alphabetical) order. */
  private static String queueLabels(String queue) {
    return "queue_display_name=\""
        + queue
        + "\",queue_metadata_name=\""
        + queue
        + "\",queue_name=\""
        + queue
        + "\"";
  }
}
