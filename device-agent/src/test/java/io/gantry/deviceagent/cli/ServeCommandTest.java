package io.gantry.deviceagent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.deviceagent.agent.NodeAgent;
import io.gantry.deviceagent.kube.DeviceAgentApiAccess;
import io.gantry.deviceagent.testing.FakeMpsControl;
import io.gantry.deviceagent.testing.FakeMpsControl.Call;
import io.gantry.deviceagent.testing.SharedGpuPods;
import io.gantry.fakekube.ApiAccessLog;
import io.gantry.fakekube.DeleteOptions;
import io.gantry.fakekube.FakeDeviceManager;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.FakeNode;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.PortionMemory;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.nodecommon.nvml.JnaNvml;
import io.gantry.nodecommon.nvml.NvmlSession;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvml;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Kubeconfig;
import io.gantry.nodecommon.testing.MetricsScrape;
import io.gantry.proto.nodeagent.v1.NodeAgentGrpc;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.GetNodeRequest;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Node;
import io.gantry.proto.uds.UnixSocketChannels;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code gantry-device-agent serve} in-process: against the fake API server and the fake kubelet,
 * with a fake nvidia-smi on PATH.
 */
class ServeCommandTest {
  @TempDir Path tmp;

  private record Run(int status, String err) {}

  /** NVML as on a machine without the driver's library (discovery falls back to nvidia-smi). */
  private NvmlSession.Loader nvml = () -> JnaNvml.load("libnvidia-ml-absent.so.1");

  /** The clock serve is given. */
  private Clock clock = Clock.systemUTC();

  private Run run(Map<String, String> env, CountDownLatch stopped, String... args) {
    CommandLine cli = DeviceAgentCli.commandLine(env, stopped, nvml, clock);
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err));
    cli.setOut(new PrintWriter(new StringWriter()));
    int status = cli.execute(args);
    return new Run(status, err.toString());
  }

  /**
   * Runs serve on node gpu-0 against {@code kube} until {@code stopped}, discovering every second
   * unless {@code more} says otherwise.
   */
  private CompletableFuture<Run> serveInBackground(
      FakeKubeServer kube, Path smiDir, Path pluginDir, CountDownLatch stopped, String... more)
      throws Exception {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "serve",
            "--kubeconfig",
            Kubeconfig.write(tmp, kube.url()).toString(),
            "--device-plugin-dir",
            pluginDir.toString(),
            "--node-agent-socket",
            nodeAgentSocket().toString()));
    if (!List.of(more).contains("--discovery-interval")) {
      args.addAll(List.of("--discovery-interval", "1"));
    }
    if (!List.of(more).contains("--gpu-sharing-mode")) {
      // these cases were written for Gantry's device plugin, the default before reservation pods
      args.addAll(List.of("--gpu-sharing-mode", "device-plugin"));
    }
    args.addAll(List.of(more));
    return CompletableFuture.supplyAsync(
        () ->
            run(
                Map.of("PATH", smiDir.toString(), "NODE_NAME", "gpu-0"),
                stopped,
                args.toArray(String[]::new)));
  }

  /** Where the tests' serve puts the node-agent socket. */
  private Path nodeAgentSocket() {
    return tmp.resolve("gantry").resolve("node-agent.sock");
  }

  /** The model of the HGX H100 fixture's GPUs. */
  private static final String H100 = "NVIDIA H100 80GB HBM3";

  /** The inventory published on node gpu-0. */
  private static GpuInventory published(FakeKubeServer kube) throws Exception {
    String annotation =
        kube.store()
            .get(ResourceKinds.NODES, "", "gpu-0")
            .orElseThrow()
            .path("metadata")
            .path("annotations")
            .path(InventoryAnnotation.KEY)
            .asText();
    return InventoryAnnotation.parse(annotation).inventory();
  }

  @Test
  void servesTheKubeletAndPublishesTheInventoryUntilStopped() throws Exception {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    Path pluginDir = Files.createDirectories(tmp.resolve("device-plugins"));
    try (FakeKubeServer kube = FakeKubeServer.start();
        FakeKubelet kubelet = FakeKubelet.start(kube);
        FakeDeviceManager devices = FakeDeviceManager.start(pluginDir)) {
      kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64")));
      CountDownLatch stopped = new CountDownLatch(1);
      CompletableFuture<Run> serving = serveInBackground(kube, smiDir, pluginDir, stopped);

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(devices.devices("nvidia.com/gpu")).hasSize(8);
                assertThat(published(kube).devices()).hasSize(8);
              });
      stopped.countDown();
      Run run = serving.get(30, TimeUnit.SECONDS);
      assertThat(run.status()).as(run.err()).isZero();
      assertThatEveryCallIsListed(kube);
    }
  }

  /** A fake nvidia-smi of the 8-GPU HGX H100 in a directory of its own, returned. */
  private Path hgxH100Smi() throws IOException {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    return smiDir;
  }

  @Test
  void withReservationPodsItRegistersNoDevicePluginButPublishesTheInventory() throws Exception {
    Path smiDir = hgxH100Smi();
    Path pluginDir = Files.createDirectories(tmp.resolve("device-plugins"));
    try (FakeKubeServer kube = FakeKubeServer.start();
        FakeKubelet kubelet = FakeKubelet.start(kube);
        FakeDeviceManager devices = FakeDeviceManager.start(pluginDir)) {
      kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64")));
      CountDownLatch stopped = new CountDownLatch(1);
      CompletableFuture<Run> serving =
          serveInBackground(
              kube, smiDir, pluginDir, stopped, "--gpu-sharing-mode", "reservation-pods");

      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .untilAsserted(() -> assertThat(published(kube).devices()).hasSize(8));
      // over further discoveries nothing is registered: NVIDIA's device plugin owns nvidia.com/gpu
      await()
          .during(Duration.ofMillis(1500))
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  devices.devices("nvidia.com/gpu").isEmpty()
                      && devices.devices("gantry.io/gpu-share").isEmpty());
      stopped.countDown();
      Run run = serving.get(30, TimeUnit.SECONDS);
      assertThat(run.status()).as(run.err()).isZero();
    }
  }

  @Test
  void withReservationPodsTheMpsDaemonsFollowTheMpsPodsOnTheNode() throws Exception {
    Path smiDir = hgxH100Smi();
    Path pluginDir = Files.createDirectories(tmp.resolve("device-plugins"));
    FakeMpsControl mps = FakeMpsControl.install(Files.createDirectories(tmp.resolve("mps-bin")));
    Path pipes = tmp.resolve("mps-pipes");
    Path logs = tmp.resolve("mps-logs");
    try (FakeKubeServer kube = FakeKubeServer.start();
        FakeKubelet kubelet = FakeKubelet.start(kube);
        FakeDeviceManager devices = FakeDeviceManager.start(pluginDir)) {
      kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64")));
      CountDownLatch stopped = new CountDownLatch(1);
      CompletableFuture<Run> serving =
          serveInBackground(
              kube,
              smiDir,
              pluginDir,
              stopped,
              "--gpu-sharing-mode",
              "reservation-pods",
              // no discovery round in the test's time: the daemons follow the pods' watch
              "--discovery-interval",
              "600",
              "--mps",
              "--mps-control",
              mps.executable().toString(),
              "--mps-pipe-root",
              pipes.toString(),
              "--mps-log-root",
              logs.toString());
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .untilAsserted(() -> assertThat(published(kube).devices()).hasSize(8));
      GpuDevice gpu = published(kube).devices().get(3);
      String uuid = gpu.uuid();

      // what the binder writes once GPU 3's reservation pod reported it: no Allocate is involved
      SharedGpuPods.sharingPod(
          kube, "half", 50, ComputeMode.MPS, new AssignedGpu(gpu.index(), uuid, gpu.memoryMib()));

      long halfMib = PortionMemory.memoryMib(GpuAmount.ofHundredths(50), gpu.memoryMib());
      String pipe = pipes.resolve(uuid).toString();
      String log = logs.resolve(uuid).toString();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(mps.calls())
                      .startsWith(
                          new Call(uuid, "-d", pipe, log, List.of()),
                          new Call(
                              uuid,
                              "",
                              pipe,
                              log,
                              List.of(
                                  "set_default_active_thread_percentage 50",
                                  "set_default_device_pinned_mem_limit 0 " + halfMib + "M"))));
      assertThat(devices.devices("nvidia.com/gpu")).isEmpty();

      // the pod goes: its GPU's daemon quits
      kube.store().delete(ResourceKinds.PODS, "default", "half", DeleteOptions.gracePeriod(0));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(mps.calls().get(mps.calls().size() - 1))
                      .isEqualTo(new Call(uuid, "", pipe, log, List.of("quit"))));
      assertThat(mps.calls()).extracting(Call::gpuUuid).containsOnly(uuid);
      stopped.countDown();
      Run run = serving.get(30, TimeUnit.SECONDS);
      assertThat(run.status()).as(run.err()).isZero();
      assertThatEveryCallIsListed(kube);
    }
  }

  /** What the chart grants the agent ({@link DeviceAgentApiAccess#RULES}) covers every call. */
  private static void assertThatEveryCallIsListed(FakeKubeServer kube) {
    List<ApiAccessLog.Access> calls =
        List.copyOf(kube.accesses().byUserAgentPrefix(DeviceAgentApiAccess.USER_AGENT));
    assertThat(calls).isNotEmpty();
    assertThat(calls)
        .filteredOn(
            a ->
                DeviceAgentApiAccess.RULES.stream()
                    .noneMatch(r -> r.allows(a.group(), a.resource(), a.verb())))
        .as("calls the agent made that DeviceAgentApiAccess does not list")
        .isEmpty();
  }

  @Test
  void servesTheNodeAgentApiOnItsSocketAndTcpPortUntilStopped() throws Exception {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    Path pluginDir = Files.createDirectories(tmp.resolve("device-plugins"));
    int port = freePort();
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      CountDownLatch stopped = new CountDownLatch(1);
      CompletableFuture<Run> serving =
          serveInBackground(
              kube, smiDir, pluginDir, stopped, "--node-agent-port", Integer.toString(port));
      ManagedChannel unix = UnixSocketChannels.dial(nodeAgentSocket());
      ManagedChannel tcp =
          Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
              .build();
      try {
        for (ManagedChannel channel : List.of(unix, tcp)) {
          Node node =
              await()
                  .atMost(Duration.ofSeconds(30))
                  .ignoreExceptions()
                  .until(
                      () ->
                          NodeAgentGrpc.newBlockingStub(channel)
                              .withDeadlineAfter(5, TimeUnit.SECONDS)
                              .getNode(GetNodeRequest.getDefaultInstance()),
                      n -> true);
          assertThat(node.getNodeName()).isEqualTo("gpu-0");
          assertThat(node.getGpusCount()).isEqualTo(8);
          assertThat(node.getNvlinkDomainsCount()).isEqualTo(1);
        }
      } finally {
        unix.shutdownNow();
        tcp.shutdownNow();
      }
      stopped.countDown();
      Run run = serving.get(30, TimeUnit.SECONDS);
      assertThat(run.status()).as(run.err()).isZero();
      assertThat(nodeAgentSocket()).doesNotExist();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void aNodeAgentPortOutOfRangeIsNamed() {
    Run run =
        run(
            Map.of("PATH", tmp.toString(), "NODE_NAME", "n"),
            new CountDownLatch(0),
            "serve",
            "--node-agent-port",
            "0");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--node-agent-port must be in 1..65535, got 0");
  }

  @Test
  void aCriticalXidMakesTheGpuUnhealthyForTheKubeletOnTheNodeAndInItsEventsAndMetrics()
      throws Exception {
    // NVML answers discovery and raises the XID; nvidia-smi is there for the usage watch
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    FakeNvml fake = FakeNvml.replaying(Fixtures.HGX_H100);
    nvml = () -> fake;
    // the wiring hands the one clock it is given to the Node's event writer
    Instant now = Instant.parse("2026-03-04T05:06:07Z");
    clock = Clock.fixed(now, ZoneOffset.UTC);
    Path pluginDir = Files.createDirectories(tmp.resolve("device-plugins"));
    String gpu3 = "GPU-00000003-0000-0000-0000-000000000003";
    String gpu2 = "GPU-00000002-0000-0000-0000-000000000002";
    int httpPort = freePort();
    try (FakeKubeServer kube = FakeKubeServer.start();
        FakeKubelet kubelet = FakeKubelet.start(kube);
        FakeDeviceManager devices = FakeDeviceManager.start(pluginDir)) {
      kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64")));
      CountDownLatch stopped = new CountDownLatch(1);
      CompletableFuture<Run> serving =
          serveInBackground(
              kube,
              smiDir,
              pluginDir,
              stopped,
              "--discovery",
              "nvml",
              "--http-port",
              Integer.toString(httpPort));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(devices.devices("nvidia.com/gpu")).containsEntry(gpu3, "Healthy");
                assertThat(fake.registeredForXid()).hasSize(8);
              });

      fake.raiseXid(2, 13); // an application's error: counted, the GPU stays healthy
      fake.raiseXid(3, 79);

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(devices.devices("nvidia.com/gpu"))
                    .containsEntry(gpu3, "Unhealthy")
                    .containsEntry("GPU-00000002-0000-0000-0000-000000000002", "Healthy");
                assertThat(devices.devices("gantry.io/gpu-share"))
                    .containsEntry(gpu3 + "::0", "Unhealthy");
                GpuDevice gpu = published(kube).devices().get(3);
                assertThat(gpu.health().status()).isEqualTo(HealthStatus.UNHEALTHY);
                assertThat(gpu.health().reasons()).containsExactly("XID 79 reported by the driver");
                List<? extends JsonNode> events =
                    kube.store().list(ResourceKinds.EVENTS, "default");
                assertThat(events)
                    .anySatisfy(
                        e -> {
                          assertThat(e.path("reason").asText())
                              .isEqualTo(NodeAgent.XID_EVENT_REASON);
                          assertThat(e.path("involvedObject").path("kind").asText())
                              .isEqualTo("Node");
                          assertThat(e.path("involvedObject").path("name").asText())
                              .isEqualTo("gpu-0");
                          assertThat(
                                  OffsetDateTime.parse(e.path("firstTimestamp").asText())
                                      .toInstant())
                              .isEqualTo(now);
                          assertThat(e.path("message").asText())
                              .isEqualTo(
                                  "GPU "
                                      + gpu3
                                      + " (index 3) reported critical XID 79; it is unhealthy"
                                      + " until the device agent restarts");
                        });
              });
      // later discoveries list GPU 3 healthy again: the XID keeps it unhealthy
      int counted = fake.deviceCounts();
      await().atMost(Duration.ofSeconds(30)).until(() -> fake.deviceCounts() >= counted + 2);
      assertThat(devices.devices("nvidia.com/gpu")).containsEntry(gpu3, "Unhealthy");
      assertThat(fake.inits()).isEqualTo(1);
      MetricsScrape metrics = MetricsScrape.of(httpPort);
      String node = "gpu-0";
      assertThat(metrics.value("gantry_device_agent_gpus", "node", node, "model", H100))
          .as(metrics.samples("gantry_device_agent"))
          .hasValue(8.0);
      assertThat(
              metrics.value("gantry_device_agent_gpu_healthy", "gpu_uuid", gpu3, "gpu_index", "3"))
          .hasValue(0.0);
      assertThat(
              metrics.value("gantry_device_agent_gpu_healthy", "gpu_uuid", gpu2, "gpu_index", "2"))
          .hasValue(1.0);
      assertThat(
              metrics.value(
                  "gantry_device_agent_xid_errors_total",
                  "gpu_uuid",
                  gpu3,
                  "xid",
                  "79",
                  "critical",
                  "true"))
          .hasValue(1.0);
      assertThat(
              metrics.value(
                  "gantry_device_agent_xid_errors_total",
                  "gpu_uuid",
                  gpu2,
                  "xid",
                  "13",
                  "critical",
                  "false"))
          .hasValue(1.0);
      // the first discovery and those of the loop, every second, all through NVML
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  MetricsScrape.of(httpPort)
                      .value(
                          "gantry_device_agent_discovery_seconds_count",
                          "node",
                          node,
                          "source",
                          "NVML",
                          "result",
                          "ok")
                      .orElseThrow(),
              runs -> runs >= 3);
      assertThat(metrics.value("gantry_device_agent_discovery_seconds_count", "result", "failed"))
          .hasValue(0.0);
      stopped.countDown();
      Run run = serving.get(30, TimeUnit.SECONDS);
      assertThat(run.status()).as(run.err()).isZero();
      assertThat(devices.devices("nvidia.com/gpu")).containsEntry(gpu3, "Unhealthy");
      assertThat(fake.eventSetsFreed()).isEqualTo(1);
      assertThat(fake.shutdowns()).isEqualTo(1);
    }
  }

  @Test
  void mpsWithoutTheControlProgramExitsFourNamingIt() throws Exception {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      Run run =
          run(
              Map.of("PATH", smiDir.toString(), "NODE_NAME", "gpu-0"),
              new CountDownLatch(0),
              "serve",
              "--kubeconfig",
              Kubeconfig.write(tmp, kube.url()).toString(),
              "--device-plugin-dir",
              tmp.toString(),
              "--mps");

      assertThat(run.status()).isEqualTo(4);
      assertThat(run.err()).contains("--mps: nvidia-cuda-mps-control is not on PATH");
    }
  }

  @Test
  void withoutANodeNameItRefusesToStart() {
    Run run = run(Map.of("PATH", tmp.toString()), new CountDownLatch(0), "serve");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--node-name is required (or set NODE_NAME)");
  }

  @Test
  void aMissingDevicePluginDirectoryIsNamed() {
    Run run =
        run(
            Map.of("PATH", tmp.toString(), "NODE_NAME", "n"),
            new CountDownLatch(0),
            "serve",
            "--device-plugin-dir",
            tmp.resolve("nope").toString());

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .contains("--device-plugin-dir " + tmp.resolve("nope") + " is not a directory");
  }

  @Test
  void onAMachineWithoutNvidiaSmiItExitsOne() {
    Run run =
        run(
            Map.of("PATH", tmp.toString(), "NODE_NAME", "n"),
            new CountDownLatch(0),
            "serve",
            "--device-plugin-dir",
            tmp.toString());

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).contains("no NVIDIA GPU found: nvidia-smi is not on PATH");
  }
}
