package io.gantry.dradriver.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.dradriver.kube.DraDriverApiAccess;
import io.gantry.dradriver.prepare.ClaimRef;
import io.gantry.dradriver.testing.Claims;
import io.gantry.dradriver.testing.HgxH100;
import io.gantry.fakekube.ApiAccessLog;
import io.gantry.fakekube.DeleteOptions;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.FakeNode;
import io.gantry.fakekube.FakePluginWatcher;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Kubeconfig;
import io.gantry.nodecommon.testing.MetricsScrape;
import io.gantry.proto.dra.v1.DraPluginV1Proto.Claim;
import io.gantry.proto.dra.v1.DraPluginV1Proto.Device;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourceResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourcesResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourceResponse;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodeUnprepareResourcesResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver as the kubelet meets it: {@code gantry-dra-driver serve} runs in-process against the
 * fake API server and a fake nvidia-smi replaying the HGX H100 fixture; the fake plugin watcher
 * finds its registration socket and makes the kubelet's calls over real Unix sockets.
 */
class DraDriverE2eTest {
  private static final String NODE = "gpu-node-1";
  private static final String DRIVER = "gpu.gantry.io";
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path tmp;

  private FakeKubeServer kube;
  private FakeKubelet kubelet;
  private FakePluginWatcher pluginWatcher;
  private Path smiDir;
  private Path registry;
  private Path pluginDir;
  private Path cdiDir;

  /** One running {@code serve}: stop it with {@link #stop()}. */
  private record Serving(
      CountDownLatch stopped, CompletableFuture<Integer> status, StringWriter err) {
    int stop() throws Exception {
      stopped.countDown();
      return status.get(30, TimeUnit.SECONDS);
    }
  }

  @BeforeEach
  void start() throws Exception {
    smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    registry = Files.createDirectories(tmp.resolve("plugins_registry"));
    pluginDir = tmp.resolve("plugins/gpu.gantry.io");
    cdiDir = tmp.resolve("cdi");
    kube = FakeKubeServer.start();
    kubelet = FakeKubelet.start(kube);
    kubelet.registerNode(FakeNode.of(NODE, Map.of("cpu", "64")));
    pluginWatcher = FakePluginWatcher.start(registry);
  }

  @AfterEach
  void stopAll() {
    pluginWatcher.close();
    kubelet.close();
    kube.close();
  }

  private Serving serve(String... more) throws Exception {
    Path kubeconfig = Kubeconfig.write(tmp, kube.url());
    CountDownLatch stopped = new CountDownLatch(1);
    StringWriter err = new StringWriter();
    var cli =
        DraDriverCli.commandLine(Map.of("PATH", smiDir.toString(), "NODE_NAME", NODE), stopped);
    cli.setErr(new PrintWriter(err));
    cli.setOut(new PrintWriter(new StringWriter()));
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "serve",
            "--kubeconfig",
            kubeconfig.toString(),
            "--plugin-registry-dir",
            registry.toString(),
            "--plugin-dir",
            pluginDir.toString(),
            "--cdi-dir",
            cdiDir.toString(),
            "--discovery-interval",
            "1"));
    args.addAll(List.of(more));
    CompletableFuture<Integer> status =
        CompletableFuture.supplyAsync(() -> cli.execute(args.toArray(String[]::new)));
    return new Serving(stopped, status, err);
  }

  private static Claim claim(ClaimRef ref) {
    return Claim.newBuilder()
        .setNamespace(ref.namespace())
        .setName(ref.name())
        .setUid(ref.uid())
        .build();
  }

  private Path specOf(ClaimRef ref) {
    return cdiDir.resolve("k8s.gpu.gantry.io-claim_" + ref.uid() + ".json");
  }

  private List<ObjectNode> slicesOfThisNode() {
    return kube.store().list(ResourceKinds.RESOURCE_SLICES, "").stream()
        .filter(s -> s.path("spec").path("nodeName").asText().equals(NODE))
        .toList();
  }

  @Test
  void registerPublishPrepareRestartUnprepareAsTheKubeletDoes() throws Exception {
    Serving first = serve();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(pluginWatcher.registered(DRIVER))
                    .hasValueSatisfying(
                        r -> {
                          assertThat(r.version()).isEqualTo("v1.DRAPlugin");
                          assertThat(r.info().getType()).isEqualTo("DRAPlugin");
                          assertThat(r.info().getEndpoint())
                              .isEqualTo(pluginDir.resolve("dra.sock").toString());
                          assertThat(r.info().getSupportedVersionsList())
                              .containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin");
                          assertThat(r.socketFile()).isEqualTo("gpu.gantry.io-reg.sock");
                        }));
    List<ObjectNode> slices = slicesOfThisNode();
    assertThat(slices).hasSize(1);
    JsonNode devices = slices.get(0).path("spec").path("devices");
    assertThat(devices).hasSize(8);
    assertThat(devices.findValues("uuid"))
        .extracting(u -> u.path("string").asText())
        .containsExactly(
            HgxH100.uuid(0),
            HgxH100.uuid(1),
            HgxH100.uuid(2),
            HgxH100.uuid(3),
            HgxH100.uuid(4),
            HgxH100.uuid(5),
            HgxH100.uuid(6),
            HgxH100.uuid(7));

    // prepare: the CDI spec names the UUID of the allocated device
    ClaimRef ref = Claims.claim("train-0-gpu").result("gpu", NODE, "gpu-4").create(kube.store());
    NodePrepareResourcesResponse prepared = pluginWatcher.prepare(DRIVER, List.of(claim(ref)));
    String cdiName = "k8s.gpu.gantry.io/claim=" + ref.uid() + "-gpu-4";
    assertThat(prepared.getClaimsMap())
        .containsExactly(
            Map.entry(
                ref.uid(),
                NodePrepareResourceResponse.newBuilder()
                    .addDevices(
                        Device.newBuilder()
                            .addRequestNames("gpu")
                            .setPoolName(NODE)
                            .setDeviceName("gpu-4")
                            .addCdiDeviceIds(cdiName))
                    .build()));
    assertThat(Files.readString(specOf(ref)))
        .contains("\"NVIDIA_VISIBLE_DEVICES=" + HgxH100.uuid(4) + "\"")
        .contains("\"name\" : \"" + ref.uid() + "-gpu-4\"");

    // prepare again: the same answer
    assertThat(pluginWatcher.prepare(DRIVER, List.of(claim(ref)))).isEqualTo(prepared);

    // restart: the registration socket goes and comes back; the claim object is gone meanwhile,
    // so only the checkpoint can give the same answer
    assertThat(first.stop()).as(first.err().toString()).isZero();
    await().atMost(WAIT).until(() -> pluginWatcher.registered(DRIVER).isEmpty());
    kube.store()
        .delete(ResourceKinds.RESOURCE_CLAIMS, "default", ref.name(), DeleteOptions.DEFAULT);
    Serving second = serve();
    await().atMost(WAIT).until(() -> pluginWatcher.registrations().size() == 2);
    assertThat(pluginWatcher.prepare(DRIVER, List.of(claim(ref)))).isEqualTo(prepared);
    assertThat(slicesOfThisNode())
        .singleElement()
        .satisfies(
            s -> assertThat(s.path("spec").path("pool").path("generation").asLong()).isEqualTo(1));

    // unprepare: the spec file is removed; again: no error
    NodeUnprepareResourcesResponse unprepared =
        pluginWatcher.unprepare(DRIVER, List.of(claim(ref)));
    assertThat(unprepared.getClaimsMap())
        .containsExactly(Map.entry(ref.uid(), NodeUnprepareResourceResponse.getDefaultInstance()));
    assertThat(Files.exists(specOf(ref))).isFalse();
    assertThat(pluginWatcher.unprepare(DRIVER, List.of(claim(ref)))).isEqualTo(unprepared);

    // the devices change: the slice is republished at the next generation
    FakeNvidiaSmi.replaying(smiDir, Fixtures.A100_40GB).install();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(slicesOfThisNode())
                    .singleElement()
                    .satisfies(
                        s -> {
                          assertThat(s.path("spec").path("pool").path("generation").asLong())
                              .isEqualTo(2);
                          assertThat(s.path("spec").path("devices")).hasSize(1);
                        }));
    assertThat(second.stop()).as(second.err().toString()).isZero();
    assertThatEveryCallIsListed();
  }

  @Test
  void badClaimsGetTheirOwnErrorsNamingTheFieldAndGoodOnesArePreparedAndCounted() throws Exception {
    int httpPort = freePort();
    Serving serving = serve("--http-port", Integer.toString(httpPort));
    await().atMost(WAIT).until(() -> pluginWatcher.registered(DRIVER).isPresent());
    ClaimRef good = Claims.claim("good").result("gpu", NODE, "gpu-0").create(kube.store());
    ClaimRef unknown =
        Claims.claim("unknown-device").result("gpu", NODE, "gpu-8").create(kube.store());
    ClaimRef malformed =
        Claims.claim("malformed")
            .result("gpu", NODE, "gpu-1")
            .config(
                "FromClaim",
                DRIVER,
                "{\"apiVersion\": \"gpu.gantry.io/v1\", \"kind\": \"GpuSharingConfig\","
                    + " \"computeMode\": \"mps\", \"memoryMiB\": \"lots\"}")
            .create(kube.store());

    NodePrepareResourcesResponse answer =
        pluginWatcher.prepare(DRIVER, List.of(claim(good), claim(unknown), claim(malformed)));

    assertThat(answer.getClaimsOrThrow(good.uid()).getError()).isEmpty();
    assertThat(answer.getClaimsOrThrow(good.uid()).getDevicesList()).hasSize(1);
    assertThat(answer.getClaimsOrThrow(unknown.uid()).getError())
        .startsWith(
            "ResourceClaim default/unknown-device: status.allocation.devices.results[0].device:"
                + " unknown device 'gpu-8' in pool '"
                + NODE
                + "'");
    assertThat(answer.getClaimsOrThrow(malformed.uid()).getError())
        .isEqualTo(
            "ResourceClaim default/malformed: status.allocation.devices.config[0].opaque.parameters"
                + ".memoryMiB: expected a positive whole number of MiB, got \"lots\"");
    assertThat(answer.getClaimsOrThrow(unknown.uid()).getDevicesList()).isEmpty();
    assertThat(Files.exists(specOf(unknown))).isFalse();
    pluginWatcher.unprepare(DRIVER, List.of(claim(good), claim(unknown)));

    MetricsScrape metrics = MetricsScrape.of(httpPort);
    String prefix = "gantry_dra_driver_";
    assertThat(
            metrics.value(
                prefix + "resourceslice_publications_total", "node", NODE, "result", "ok"))
        .as(metrics.samples(prefix))
        .hasValue(1.0);
    assertThat(metrics.value(prefix + "published_devices", "node", NODE)).hasValue(8.0);
    assertThat(metrics.value(prefix + "resourceslice_generation", "node", NODE)).hasValue(1.0);
    String prepare = "NodePrepareResources";
    String unprepare = "NodeUnprepareResources";
    assertThat(metrics.value(prefix + "requests_seconds_count", "method", prepare)).hasValue(1.0);
    assertThat(metrics.value(prefix + "requests_seconds_count", "method", unprepare)).hasValue(1.0);
    assertThat(metrics.value(prefix + "claims_total", "method", prepare, "result", "ok"))
        .hasValue(1.0);
    assertThat(metrics.value(prefix + "claims_total", "method", prepare, "result", "error"))
        .hasValue(2.0);
    // unpreparing a claim this driver never prepared is no error
    assertThat(metrics.value(prefix + "claims_total", "method", unprepare, "result", "ok"))
        .hasValue(2.0);
    assertThat(metrics.value(prefix + "cdi_spec_writes_total", "result", "ok")).hasValue(1.0);
    // the good claim was prepared and unprepared again
    assertThat(metrics.value(prefix + "prepared_claims", "node", NODE)).hasValue(0.0);
    assertThat(serving.stop()).isZero();
    assertThatEveryCallIsListed();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void aKubeletThatSpeaksOnlyV1beta1IsServedTheSameAnswers() throws Exception {
    pluginWatcher.close();
    pluginWatcher = FakePluginWatcher.start(registry, List.of("v1beta1.DRAPlugin"));
    Serving serving = serve();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(pluginWatcher.registered(DRIVER))
                    .hasValueSatisfying(
                        r -> assertThat(r.version()).isEqualTo("v1beta1.DRAPlugin")));
    ClaimRef ref = Claims.claim("c").result("gpu", NODE, "gpu-7").create(kube.store());

    NodePrepareResourcesResponse prepared = pluginWatcher.prepare(DRIVER, List.of(claim(ref)));
    NodeUnprepareResourcesResponse unprepared =
        pluginWatcher.unprepare(DRIVER, List.of(claim(ref)));

    assertThat(prepared.getClaimsOrThrow(ref.uid()).getDevicesList())
        .singleElement()
        .satisfies(
            d ->
                assertThat(d.getCdiDeviceIdsList())
                    .containsExactly("k8s.gpu.gantry.io/claim=" + ref.uid() + "-gpu-7"));
    assertThat(unprepared.getClaimsOrThrow(ref.uid()).getError()).isEmpty();
    assertThat(Files.exists(specOf(ref))).isFalse();
    assertThat(serving.stop()).isZero();
  }

  /** What the chart grants the driver ({@link DraDriverApiAccess#RULES}) covers every call. */
  private void assertThatEveryCallIsListed() {
    List<ApiAccessLog.Access> calls =
        List.copyOf(kube.accesses().byUserAgentPrefix(DraDriverApiAccess.USER_AGENT));
    assertThat(calls).isNotEmpty();
    assertThat(calls)
        .filteredOn(
            a ->
                DraDriverApiAccess.RULES.stream()
                    .noneMatch(r -> r.allows(a.group(), a.resource(), a.verb())))
        .as("calls the driver made that DraDriverApiAccess does not list")
        .isEmpty();
  }
}
