package io.gantry.scheduler.kube.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.gantry.scheduler.model.GpuTopology;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The device agent's inventory annotation read into a node's GPU topology. */
class GpuInventoryReaderTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final EventRecorder events =
      new EventRecorder(
          new KubeWriter(KubeClients.forUrl(kube.url())),
          TestObjects.SCHEDULER,
          Clock.systemUTC(),
          1000);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final GpuInventoryReader reader = new GpuInventoryReader(events, Optional.of(registry));

  @AfterEach
  void stop() {
    events.close();
    kube.close();
  }

  private static V1Node node(String name, String inventory) {
    V1ObjectMeta meta = new V1ObjectMeta().name(name).uid("uid-" + name);
    if (inventory != null) {
      meta.annotations(Map.of(InventoryAnnotation.KEY, inventory));
    }
    return new V1Node().metadata(meta);
  }

  private static final List<List<Integer>> TWO_DOMAINS =
      List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7));

  @Test
  void theNvlinkDomainsBecomeGroupsOfDeviceIndices() {
    GpuTopology topology =
        reader.topology(node("gpu-0", TestObjects.gpuInventory(8, List.of(), TWO_DOMAINS)), 8);

    assertThat(topology).isEqualTo(GpuTopology.of(TWO_DOMAINS));
  }

  @Test
  void anUnhealthyDeviceIsNamedSoThatNoTaskGetsIt() {
    GpuTopology topology =
        reader.topology(node("gpu-0", TestObjects.gpuInventory(8, List.of(5), TWO_DOMAINS)), 7);

    assertThat(topology).isEqualTo(GpuTopology.of(TWO_DOMAINS, List.of(5)));
  }

  @Test
  void whileTheInventoryAndTheAllocatableCountDisagreeTheNodeIsScheduledByCount() {
    // the kubelet still offers 8 GPUs, the inventory already says one is unhealthy
    assertThat(
            reader.topology(node("gpu-0", TestObjects.gpuInventory(8, List.of(5), TWO_DOMAINS)), 8))
        .isEqualTo(GpuTopology.NONE);
  }

  @Test
  void aNodeWithoutAnnotationOrDomainsHasNone() {
    assertThat(reader.topology(node("gpu-0", null), 8)).isEqualTo(GpuTopology.NONE);
    assertThat(reader.topology(node("gpu-1", TestObjects.gpuInventory(8, List.of(), List.of())), 8))
        .isEqualTo(GpuTopology.NONE);
  }

  @Test
  void aNewerVersionIsReportedOncePerValueAndTheNodeHasNoDomains() {
    String newer =
        TestObjects.gpuInventory(8, List.of(), TWO_DOMAINS)
            .replace("\"version\":1", "\"version\":2");

    assertThat(reader.topology(node("gpu-0", newer), 8)).isEqualTo(GpuTopology.NONE);
    assertThat(reader.topology(node("gpu-0", newer), 8)).isEqualTo(GpuTopology.NONE);

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              List<ObjectNode> written = kube.store().list(ResourceKinds.EVENTS, "default");
              assertThat(written).hasSize(1);
              assertThat(written.get(0).path("type").asText()).isEqualTo("Warning");
              assertThat(written.get(0).path("reason").asText())
                  .isEqualTo("GpuInventoryUnreadable");
              assertThat(written.get(0).at("/involvedObject/kind").asText()).isEqualTo("Node");
              assertThat(written.get(0).at("/involvedObject/name").asText()).isEqualTo("gpu-0");
              assertThat(written.get(0).path("message").asText())
                  .isEqualTo(
                      "node gpu-0 is scheduled without NVLink domains: gantry.io/gpu-inventory:"
                          + " version: unsupported version 2 (this build reads version 1)");
            });
    assertThat(registry.counter("gantry_gpu_inventory_unreadable").count()).isEqualTo(1);
  }

  @Test
  void aMalformedFieldIsNamedAndEachNewValueIsReportedAgain() {
    String badMemory =
        TestObjects.gpuInventory(8, List.of(), TWO_DOMAINS)
            .replace("\"memoryMib\":81559", "\"memoryMib\":\"80\"");
    String badDomain =
        TestObjects.gpuInventory(8, List.of(), TWO_DOMAINS).replace("[4,5,6,7]", "[4,5,6,7,8]");

    assertThat(reader.topology(node("gpu-0", badMemory), 8)).isEqualTo(GpuTopology.NONE);
    assertThat(reader.topology(node("gpu-0", badDomain), 8)).isEqualTo(GpuTopology.NONE);

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(kube.store().list(ResourceKinds.EVENTS, "default"))
                    .extracting(e -> e.path("message").asText())
                    .containsExactlyInAnyOrder(
                        "node gpu-0 is scheduled without NVLink domains: gantry.io/gpu-inventory:"
                            + " devices[0].memoryMib: expected an integer, got \"80\"",
                        "node gpu-0 is scheduled without NVLink domains: gantry.io/gpu-inventory:"
                            + " nvlinkDomains[1].gpuIndices: device 8 is not one of the 8"
                            + " devices"));
    assertThat(registry.counter("gantry_gpu_inventory_unreadable").count()).isEqualTo(2);
  }
}
