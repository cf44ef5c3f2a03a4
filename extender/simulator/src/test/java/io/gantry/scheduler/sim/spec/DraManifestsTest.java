package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** API objects as JSON become the engine's values by the scenario rules, or name the bad field. */
class DraManifestsTest {
  @Test
  void aClaimIsReadFromItsSpecAndTheRestOfTheObjectIsLeftToTheCaller() {
    String json =
        "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
            + "\"metadata\":{\"name\":\"c\",\"namespace\":\"ml\",\"resourceVersion\":\"7\"},"
            + "\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":"
            + "{\"deviceClassName\":\"gpu.gantry.io\",\"allocationMode\":\"ExactCount\","
            + "\"count\":2}}]}},"
            + "\"status\":{\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"p\",\"uid\":\"u\"}]}}";

    assertThat(DraManifests.resourceClaim("ml", "c", json))
        .isEqualTo(
            new ResourceClaim(
                "ml",
                "c",
                ImmutableList.of(
                    DeviceRequest.exactly(
                        "gpu",
                        new DeviceSubRequest(
                            "gpu",
                            "gpu.gantry.io",
                            ImmutableList.of(),
                            AllocationMode.EXACT_COUNT,
                            2))),
                ImmutableList.of(),
                Optional.empty(),
                ImmutableList.of()));
  }

  @Test
  void aDeviceClassAndASliceAreRead() {
    assertThat(
            DraManifests.deviceClass(
                "gpu.gantry.io",
                "{\"metadata\":{\"name\":\"gpu.gantry.io\"},\"spec\":{\"selectors\":"
                    + "[{\"cel\":{\"expression\":\"device.driver == 'gpu.gantry.io'\"}}]}}"))
        .isEqualTo(
            new DeviceClass("gpu.gantry.io", ImmutableList.of("device.driver == 'gpu.gantry.io'")));
    ResourceSlice slice =
        DraManifests.resourceSlice(
            "n1-gpu",
            "{\"spec\":{\"driver\":\"gpu.gantry.io\",\"nodeName\":\"n1\",\"pool\":{\"name\":\"n1\","
                + "\"generation\":3,\"resourceSliceCount\":1},\"devices\":[{\"name\":\"gpu-0\","
                + "\"attributes\":{\"index\":{\"int\":0}},\"capacity\":{\"memory\":"
                + "{\"value\":\"80Gi\"}}}]}}");
    assertThat(slice.nodes()).contains(DeviceNodes.node("n1"));
    assertThat(slice.pool().generation()).isEqualTo(3);
    assertThat(slice.devices().get(0).capacity()).containsEntry("memory", "80Gi");
  }

  private static final String POOL =
      "\"driver\":\"gpu.gantry.io\",\"pool\":{\"name\":\"p\",\"generation\":1,"
          + "\"resourceSliceCount\":1}";
  private static final String ZONE_A =
      "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"zone\","
          + "\"operator\":\"In\",\"values\":[\"a\"]}]}]}";
  private static final NodeSelectorTerm ZONE_A_TERM =
      NodeSelectorTerm.ofExpressions(NodeSelectorRequirement.of("zone", SelectorOperator.IN, "a"));

  @Test
  void aSliceNodeSelectorIsRead() {
    ResourceSlice slice =
        DraManifests.resourceSlice(
            "s",
            "{\"spec\":{"
                + POOL
                + ",\"nodeSelector\":"
                + ZONE_A
                + ",\"devices\":[{\"name\":\"d\"}]}}");

    assertThat(slice.nodes()).contains(DeviceNodes.selector(ZONE_A_TERM));
  }

  @Test
  void perDeviceNodeSelectionReadsEachDevicesOwnField() {
    ResourceSlice slice =
        DraManifests.resourceSlice(
            "s",
            "{\"spec\":{"
                + POOL
                + ",\"perDeviceNodeSelection\":true,\"devices\":[{\"name\":\"a\",\"nodeName\":\"n1\"},"
                + "{\"name\":\"b\",\"nodeSelector\":"
                + ZONE_A
                + "},{\"name\":\"c\",\"allNodes\":true}]}}");

    assertThat(slice.nodes()).isEmpty();
    assertThat(slice.devices())
        .extracting(DraDevice::nodes)
        .containsExactly(
            Optional.of(DeviceNodes.node("n1")),
            Optional.of(DeviceNodes.selector(ZONE_A_TERM)),
            Optional.of(DeviceNodes.ALL_NODES));
  }

  @Test
  void badNodeSelectionNamesTheField() {
    assertThatThrownBy(
            () ->
                DraManifests.resourceSlice(
                    "s",
                    "{\"spec\":{" + POOL + ",\"nodeSelector\":{\"nodeSelectorTerms\":[{},{}]}}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.nodeSelector: nodeSelectorTerms must hold exactly one term, got 2");
    assertThatThrownBy(
            () ->
                DraManifests.resourceSlice(
                    "s", "{\"spec\":{" + POOL + ",\"nodeName\":\"n1\",\"allNodes\":true}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "spec: exactly one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection"
                + " must be set");
    assertThatThrownBy(
            () ->
                DraManifests.resourceSlice(
                    "s",
                    "{\"spec\":{"
                        + POOL
                        + ",\"nodeName\":\"n1\",\"devices\":[{\"name\":\"a\",\"allNodes\":true}]}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "spec.devices[0]: nodeName, nodeSelector and allNodes of a device need"
                + " perDeviceNodeSelection: true on the slice");
    assertThatThrownBy(
            () ->
                DraManifests.resourceSlice(
                    "s",
                    "{\"spec\":{"
                        + POOL
                        + ",\"perDeviceNodeSelection\":true,\"devices\":[{\"name\":\"a\"}]}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "spec.devices[0]: exactly one of nodeName, nodeSelector and allNodes must be set, as"
                + " the slice sets perDeviceNodeSelection");
  }

  @Test
  void anAllocationNodeSelectorIsReadWithAllItsTerms() {
    assertThat(
            DraManifests.allocationNodeSelector(
                "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\","
                    + "\"operator\":\"In\",\"values\":[\"n1\"]}]},"
                    + ZONE_A.substring(ZONE_A.indexOf('[') + 1, ZONE_A.length() - 2)
                    + "]}"))
        .containsExactly(DeviceNodes.nodeNameTerm("n1"), ZONE_A_TERM);
    assertThatThrownBy(
            () ->
                DraManifests.allocationNodeSelector(
                    "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"zone\","
                        + "\"operator\":\"Near\"}]}]}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "status.allocation.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].operator:");
  }

  @Test
  void aBadClaimNamesTheField() {
    assertThatThrownBy(
            () ->
                DraManifests.resourceClaim(
                    "ml",
                    "c",
                    "{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\","
                        + "\"exactly\":{\"count\":1}}]}}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.devices.requests[0].exactly.deviceClassName: is required");
  }

  @Test
  void aFieldTheEngineDoesNotActOnIsRefusedByName() {
    assertThatThrownBy(
            () ->
                DraManifests.resourceSlice(
                    "s",
                    "{\"spec\":{\"driver\":\"d\",\"nodeName\":\"n\",\"pool\":{\"name\":\"p\","
                        + "\"generation\":1,\"resourceSliceCount\":1},\"sharedCounters\":[]}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.sharedCounters: unknown field");
  }

  @Test
  void anObjectWithoutSpecSaysSo() {
    assertThatThrownBy(() -> DraManifests.deviceClass("x", "{\"metadata\":{\"name\":\"x\"}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec: is required");
  }
}
