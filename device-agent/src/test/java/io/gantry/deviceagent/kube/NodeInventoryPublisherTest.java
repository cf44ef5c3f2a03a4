package io.gantry.deviceagent.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.FakeNode;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.kubernetes.client.openapi.ApiException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inventory on the Node object, against the fake API server, from a fake nvidia-smi. */
class NodeInventoryPublisherTest {
  @TempDir Path tmp;

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final FakeKubelet kubelet = FakeKubelet.start(kube);

  @AfterEach
  void stop() {
    kubelet.close();
    kube.close();
  }

  private GpuInventory discover(String fixture) throws Exception {
    Path executable =
        FakeNvidiaSmi.replaying(Files.createDirectories(tmp.resolve(fixture)), fixture).install();
    return new GpuDiscovery(NvidiaSmi.locate(executable.toString(), "", Duration.ofSeconds(10)))
        .discover();
  }

  private JsonNode node(String name) {
    return kube.store().get(ResourceKinds.NODES, "", name).orElseThrow();
  }

  @Test
  void annotationAndLabelsAppearOnTheNodeBesideItsOwnLabels() throws Exception {
    kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64"), Map.of("pool", "a")));
    GpuInventory inventory = discover(Fixtures.HGX_H100);
    NodeInventoryPublisher publisher =
        new NodeInventoryPublisher(ApiClients.forUrl(kube.url()), "gpu-0");

    assertThat(publisher.publish(inventory)).isTrue();

    JsonNode meta = node("gpu-0").get("metadata");
    assertThat(meta.get("labels").get("nvidia.com/gpu.count").asText()).isEqualTo("8");
    assertThat(meta.get("labels").get("nvidia.com/gpu.memory").asText()).isEqualTo("81559");
    assertThat(meta.get("labels").get("nvidia.com/gpu.product").asText())
        .isEqualTo("NVIDIA-H100-80GB-HBM3");
    assertThat(meta.get("labels").get("pool").asText()).isEqualTo("a");
    assertThat(meta.get("labels").get("kubernetes.io/hostname").asText()).isEqualTo("gpu-0");
    InventoryAnnotation published =
        InventoryAnnotation.parse(meta.get("annotations").get(InventoryAnnotation.KEY).asText());
    assertThat(published.inventory()).isEqualTo(inventory);
    assertThat(published.inventory().nvlinkDomains()).hasSize(1);
  }

  @Test
  void anUnchangedInventoryIsNotPatchedAgain() throws Exception {
    kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64")));
    GpuInventory inventory = discover(Fixtures.HGX_H100);
    NodeInventoryPublisher publisher =
        new NodeInventoryPublisher(ApiClients.forUrl(kube.url()), "gpu-0");
    publisher.publish(inventory);
    String resourceVersion = node("gpu-0").get("metadata").get("resourceVersion").asText();

    assertThat(publisher.publish(inventory)).isFalse();

    assertThat(kube.requests().count("patch", "/api/v1/nodes/gpu-0")).isEqualTo(1);
    assertThat(node("gpu-0").get("metadata").get("resourceVersion").asText())
        .isEqualTo(resourceVersion);
  }

  @Test
  void aChangedInventoryIsPatched() throws Exception {
    kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64")));
    NodeInventoryPublisher publisher =
        new NodeInventoryPublisher(ApiClients.forUrl(kube.url()), "gpu-0");
    publisher.publish(discover(Fixtures.HGX_H100));

    assertThat(publisher.publish(discover(Fixtures.TESLA_T4))).isTrue();

    JsonNode meta = node("gpu-0").get("metadata");
    assertThat(meta.get("labels").get("nvidia.com/gpu.count").asText()).isEqualTo("1");
    assertThat(meta.get("labels").get("nvidia.com/gpu.product").asText()).isEqualTo("Tesla-T4");
    assertThat(
            InventoryAnnotation.parse(meta.get("annotations").get(InventoryAnnotation.KEY).asText())
                .inventory()
                .devices())
        .hasSize(1);
    assertThat(kube.requests().count("patch", "/api/v1/nodes/gpu-0")).isEqualTo(2);
  }

  @Test
  void aMissingNodeIsAnApiError() throws Exception {
    NodeInventoryPublisher publisher =
        new NodeInventoryPublisher(ApiClients.forUrl(kube.url()), "nowhere");
    GpuInventory inventory = discover(Fixtures.TESLA_T4);

    assertThatThrownBy(() -> publisher.publish(inventory))
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).getCode()).isEqualTo(404));
  }
}
