package io.gantry.e2e;

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
import io.gantry.dradriver.DraDriver;
import io.gantry.dradriver.DriverPaths;
import io.gantry.dradriver.kube.DraDriverApiAccess;
import io.gantry.dradriver.metrics.DraDriverMetrics;
import io.gantry.fakekube.FakePluginWatcher;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Kubeconfig;
import io.gantry.proto.dra.v1.DraPluginV1Proto.Claim;
import io.gantry.proto.dra.v1.DraPluginV1Proto.NodePrepareResourceResponse;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opaque device configuration from end to end: the DRA driver publishes the node's eight H100s
 * (fake nvidia-smi replaying the HGX H100 fixture), {@code gantry scheduler} allocates a template
 * claim whose config asks the driver for MPS sharing and writes that config into the claim's {@code
 * status.allocation.devices.config} after the DeviceClass's own (FromClass, then FromClaim), and
 * the driver, called over its real Unix socket as the kubelet calls it, prepares the claim with the
 * MPS limits in the CDI spec: the claim's configuration, the later one, wins.
 */
class DraSharingConfigE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String NODE = "gpu-node-1";
  private static final String NS = "ml";
  private static final String CLAIM = "server-gpu-q8r4t";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String TIME_SLICED_WHOLE =
      "{\"apiVersion\":\"gpu.gantry.io/v1\",\"kind\":\"GpuSharingConfig\","
          + "\"computeMode\":\"time-slicing\",\"fraction\":1}";
  private static final String MPS_HALF =
      "{\"apiVersion\":\"gpu.gantry.io/v1\",\"kind\":\"GpuSharingConfig\","
          + "\"computeMode\":\"mps\",\"fraction\":0.5}";

  @TempDir Path tmp;

  private final E2eCluster cluster = new E2eCluster();
  private FakePluginWatcher pluginWatcher;
  private DraDriver driver;
  private Path cdiDir;

  @BeforeEach
  void start() throws Exception {
    cluster.node(gpuNode(NODE, 0));
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    Path registry = Files.createDirectories(tmp.resolve("plugins_registry"));
    cdiDir = tmp.resolve("cdi");
    pluginWatcher = FakePluginWatcher.start(registry);
    ApiClient api =
        ApiClients.connect(ClusterAccess.ofKubeconfig(Kubeconfig.write(tmp, cluster.kube.url())));
    api.setUserAgent(DraDriverApiAccess.USER_AGENT);
    driver =
        DraDriver.start(
            NODE,
            new DriverPaths(registry, tmp.resolve("plugins/" + DraObjects.DRIVER), cdiDir),
            new GpuDiscovery(
                NvidiaSmi.locate("nvidia-smi", smiDir.toString(), Duration.ofSeconds(10))),
            api,
            Duration.ofMinutes(10),
            new DraDriverMetrics(new SimpleMeterRegistry(), NODE));
  }

  @AfterEach
  void stop() {
    driver.close();
    pluginWatcher.close();
    cluster.close();
  }

  @Test
  void theClaimsSharingConfigReachesTheDriverThroughTheAllocation() throws Exception {
    await().atMost(WAIT).until(() -> pluginWatcher.registered(DraObjects.DRIVER).isPresent());
    assertThat(cluster.kube.store().list(ResourceKinds.RESOURCE_SLICES, ""))
        .singleElement()
        .satisfies(s -> assertThat(s.at("/spec/devices")).hasSize(8));
    ObjectNode deviceClass = DraObjects.deviceClass();
    ((ObjectNode) deviceClass.get("spec"))
        .putArray("config")
        .addObject()
        .set("opaque", opaque(TIME_SLICED_WHOLE));
    cluster.create(deviceClass);
    ObjectNode template = DraObjects.template(NS, "mps-half");
    ObjectNode config =
        ((ObjectNode) template.at("/spec/spec/devices")).putArray("config").addObject();
    config.putArray("requests").add("gpu");
    config.set("opaque", opaque(MPS_HALF));
    cluster.create(template);
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
    cluster.create(podGroup(NS, "inference", "team", 1));
    cluster.create(
        inGroup(
            DraObjects.withTemplateClaim(
                pod(NS, "server", TestObjects.SCHEDULER, "1", 0), "mps-half"),
            "inference"));
    DraObjects.generateClaim(cluster, NS, "server", "mps-half", CLAIM);

    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    await().atMost(WAIT).until(() -> cluster.boundPods(NS) == 1);
    JsonNode claim =
        cluster.kube.store().get(ResourceKinds.RESOURCE_CLAIMS, NS, CLAIM).orElseThrow();
    assertThat(claim.at("/status/allocation/devices/config").toString())
        .isEqualTo(
            "[{\"source\":\"FromClass\",\"requests\":[\"gpu\"],\"opaque\":{\"driver\":"
                + "\"gpu.gantry.io\",\"parameters\":"
                + TIME_SLICED_WHOLE
                + "}},{\"source\":\"FromClaim\",\"requests\":[\"gpu\"],\"opaque\":{\"driver\":"
                + "\"gpu.gantry.io\",\"parameters\":"
                + MPS_HALF
                + "}}]");
    String device = claim.at("/status/allocation/devices/results/0/device").asText();
    int index = Integer.parseInt(device.substring("gpu-".length()));

    String uid = claim.at("/metadata/uid").asText();
    NodePrepareResourceResponse prepared =
        pluginWatcher
            .prepare(
                DraObjects.DRIVER,
                List.of(Claim.newBuilder().setNamespace(NS).setName(CLAIM).setUid(uid).build()))
            .getClaimsOrThrow(uid);

    assertThat(prepared.getError()).isEmpty();
    assertThat(prepared.getDevices(0).getCdiDeviceIdsList())
        .containsExactly("k8s.gpu.gantry.io/claim=" + uid + "-" + device);
    JsonNode spec =
        MAPPER.readTree(cdiDir.resolve("k8s.gpu.gantry.io-claim_" + uid + ".json").toFile());
    // half of the H100's 81559 MiB, under MPS with half its threads
    assertThat(spec.at("/devices/0/containerEdits/env"))
        .extracting(JsonNode::asText)
        .containsExactly(
            "CUDA_DEVICE_MEMORY_LIMIT=40779m",
            "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50",
            "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=40779M",
            "CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps",
            "GPU_PORTION=0.50",
            "NVIDIA_VISIBLE_DEVICES="
                + String.format("GPU-%08d-0000-0000-0000-%012d", index, index),
            "RUNAI_NUM_OF_GPUS=0.50");
  }

  private static ObjectNode opaque(String parametersJson) throws Exception {
    ObjectNode opaque = Json.object().put("driver", DraObjects.DRIVER);
    opaque.set("parameters", MAPPER.readTree(parametersJson));
    return opaque;
  }
}
