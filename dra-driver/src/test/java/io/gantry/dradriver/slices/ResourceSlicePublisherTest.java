package io.gantry.dradriver.slices;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.dradriver.devices.SliceDevice;
import io.gantry.dradriver.devices.SliceDevices;
import io.gantry.dradriver.testing.HgxH100;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.FakeNode;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.nodecommon.kube.ApiClients;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.ResourceV1Api;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceSlicePublisherTest {
  @TempDir Path dir;

  private FakeKubeServer kube;
  private FakeKubelet kubelet;
  private ApiClient client;
  private List<SliceDevice> gpus;

  @BeforeEach
  void start() throws Exception {
    kube = FakeKubeServer.start();
    kubelet = FakeKubelet.start(kube);
    kubelet.registerNode(FakeNode.of("node-a", Map.of("cpu", "64")));
    kubelet.registerNode(FakeNode.of("node-b", Map.of("cpu", "64")));
    client = ApiClients.forUrl(kube.url());
    gpus = SliceDevices.of(HgxH100.inventory(dir));
  }

  @AfterEach
  void stop() {
    kubelet.close();
    kube.close();
  }

  private ResourceSlicePublisher publisher(String node) {
    return new ResourceSlicePublisher(new ResourceV1Api(client), new CoreV1Api(client), node);
  }

  private ObjectNode slice(String node) {
    return kube.store()
        .get(ResourceKinds.RESOURCE_SLICES, "", node + "-gpu.gantry.io")
        .orElseThrow();
  }

  @Test
  void theSliceHoldsEveryGpuWithItsAttributesAndIsOwnedByTheNode() throws Exception {
    long generation = publisher("node-a").publish(gpus);

    ObjectNode slice = slice("node-a");
    assertThat(generation).isEqualTo(1);
    assertThat(slice.path("spec").path("driver").asText()).isEqualTo("gpu.gantry.io");
    assertThat(slice.path("spec").path("nodeName").asText()).isEqualTo("node-a");
    assertThat(slice.path("spec").path("pool").toString())
        .isEqualTo("{\"generation\":1,\"name\":\"node-a\",\"resourceSliceCount\":1}");
    assertThat(slice.path("spec").path("devices")).hasSize(8);
    assertThat(slice.path("spec").path("devices").get(0).toString())
        .isEqualTo(
            "{\"attributes\":{"
                + "\"architecture\":{\"string\":\"Hopper\"},"
                + "\"index\":{\"int\":0},"
                + "\"nvlinkDomain\":{\"string\":\"local-0\"},"
                + "\"productName\":{\"string\":\"NVIDIA H100 80GB HBM3\"},"
                + "\"resource.kubernetes.io/pciBusID\":{\"string\":\"0000:53:00.0\"},"
                + "\"uuid\":{\"string\":\""
                + HgxH100.uuid(0)
                + "\"}},"
                + "\"capacity\":{\"memory\":{\"value\":\"81559Mi\"}},"
                + "\"name\":\"gpu-0\"}");
    ObjectNode node = kube.store().get(ResourceKinds.NODES, "", "node-a").orElseThrow();
    assertThat(slice.path("metadata").path("ownerReferences").get(0).path("uid").asText())
        .isEqualTo(node.path("metadata").path("uid").asText());
  }

  @Test
  void unchangedDevicesWriteNothingAndChangedOnesTheNextGeneration() throws Exception {
    ResourceSlicePublisher publisher = publisher("node-a");
    publisher.publish(gpus);
    String version = slice("node-a").path("metadata").path("resourceVersion").asText();

    long unchanged = publisher.publish(gpus);
    String versionAfter = slice("node-a").path("metadata").path("resourceVersion").asText();
    long changed = publisher.publish(gpus.subList(0, 7));

    assertThat(unchanged).isEqualTo(1);
    assertThat(versionAfter).isEqualTo(version);
    assertThat(changed).isEqualTo(2);
    assertThat(slice("node-a").path("spec").path("pool").path("generation").asLong()).isEqualTo(2);
    assertThat(slice("node-a").path("spec").path("devices")).hasSize(7);
  }

  @Test
  void aRestartedDriverContinuesTheGenerationAndOtherNodesAreUntouched() throws Exception {
    publisher("node-a").publish(gpus);
    publisher("node-b").publish(gpus);
    publisher("node-a").publish(gpus.subList(0, 4));

    long afterRestart = publisher("node-a").publish(gpus);

    assertThat(afterRestart).isEqualTo(3);
    assertThat(slice("node-b").path("spec").path("pool").path("generation").asLong()).isEqualTo(1);
    assertThat(slice("node-b").path("spec").path("devices")).hasSize(8);
  }

  @Test
  void aSliceOfThisDriverAndNodeUnderAnotherNameIsDeleted() throws Exception {
    ObjectNode stale = slice(publisherPublishes("node-a")).deepCopy();
    ((ObjectNode) stale.get("metadata"))
        .put("name", "node-a-old")
        .remove(List.of("uid", "resourceVersion"));
    kube.store().create(ResourceKinds.RESOURCE_SLICES, "", stale);

    publisher("node-a").publish(gpus.subList(0, 2));

    assertThat(kube.store().get(ResourceKinds.RESOURCE_SLICES, "", "node-a-old")).isEmpty();
    assertThat(slice("node-a").path("spec").path("pool").path("generation").asLong()).isEqualTo(2);
  }

  private String publisherPublishes(String node) throws Exception {
    publisher(node).publish(gpus);
    return node;
  }
}
