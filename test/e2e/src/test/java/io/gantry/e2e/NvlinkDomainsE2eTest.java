package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.PatchType;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The device agent's inventory annotation on a Node leads {@code gantry scheduler} to give a 4-GPU
 * pod the GPUs of one NVLink domain, recorded in the pod's {@code gantry.io/gpu-allocation}.
 */
class NvlinkDomainsE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final E2eCluster cluster = new E2eCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void aFourGpuPodGetsTheGpusOfOneDomain() {
    cluster.node(gpuNode("gpu-0", 8));
    // interleaved domains, so that the lowest four indices (0-3) would span both
    ObjectNode patch = Json.object();
    patch
        .putObject("metadata")
        .putObject("annotations")
        .put(
            InventoryAnnotation.KEY,
            TestObjects.gpuInventory(
                8, List.of(), List.of(List.of(0, 2, 4, 6), List.of(1, 3, 5, 7))));
    cluster
        .kube
        .store()
        .patch(ResourceKinds.NODES, "", "gpu-0", PatchType.MERGE_PATCH, Json.write(patch), false);
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
    cluster.create(podGroup("ml", "trainer", "team", 1));
    cluster.create(inGroup(pod("ml", "trainer-0", TestObjects.SCHEDULER, "1", 4), "trainer"));
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 1);
    JsonNode bound = cluster.pod("ml", "trainer-0");
    assertThat(bound.at("/spec/nodeName").asText()).isEqualTo("gpu-0");
    GpuAllocation allocation =
        GpuAllocationJson.read(
            bound.at("/metadata/annotations").path(GpuAllocation.ANNOTATION).asText());
    assertThat(allocation).isEqualTo(GpuAllocation.wholeChosen("gpu-0", List.of(0, 2, 4, 6)));
  }
}
