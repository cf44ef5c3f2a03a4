package io.gantry.kubemodel.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.ClaimConfig;
import io.gantry.scheduler.model.dra.CounterSet;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceCounterConsumption;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.model.placement.TolerationOperator;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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
                ImmutableSortedMap.of(),
                ImmutableList.of(
                    DeviceRequest.exactly(
                        "gpu",
                        new DeviceSubRequest(
                            "gpu",
                            "gpu.gantry.io",
                            ImmutableList.of(),
                            AllocationMode.EXACT_COUNT,
                            2,
                            ImmutableList.of()))),
                ImmutableList.of(),
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
            new DeviceClass(
                "gpu.gantry.io",
                ImmutableList.of("device.driver == 'gpu.gantry.io'"),
                ImmutableList.of()));
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

  record BadSlice(String name, String afterPool, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<BadSlice> badSlices() {
    return Stream.of(
        new BadSlice(
            "a node selector of two terms",
            ",\"nodeSelector\":{\"nodeSelectorTerms\":[{},{}]}",
            "spec.nodeSelector: nodeSelectorTerms must hold exactly one term, got 2"),
        new BadSlice(
            "nodeName and allNodes",
            ",\"nodeName\":\"n1\",\"allNodes\":true",
            "spec: exactly one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection"
                + " must be set"),
        new BadSlice(
            "a device's own nodes without perDeviceNodeSelection",
            ",\"nodeName\":\"n1\",\"devices\":[{\"name\":\"a\",\"allNodes\":true}]",
            "spec.devices[0]: nodeName, nodeSelector and allNodes of a device need"
                + " perDeviceNodeSelection: true on the slice"),
        new BadSlice(
            "perDeviceNodeSelection and a device without nodes",
            ",\"perDeviceNodeSelection\":true,\"devices\":[{\"name\":\"a\"}]",
            "spec.devices[0]: exactly one of nodeName, nodeSelector and allNodes must be set, as"
                + " the slice sets perDeviceNodeSelection"),
        new BadSlice(
            "a counter that is not a quantity",
            ",\"nodeName\":\"n1\",\"sharedCounters\":[{\"name\":\"gpu-0\","
                + "\"counters\":{\"memory\":{\"value\":\"lots\"}}}]",
            "spec.sharedCounters[0].counters.memory.value: expected a quantity such as 500m, 8"
                + " or 64Gi, got \"lots\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badSlices")
  void aBadSliceNamesTheField(BadSlice c) {
    assertThatThrownBy(
            () -> DraManifests.resourceSlice("s", "{\"spec\":{" + POOL + c.afterPool() + "}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(c.message());
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
  void deviceTaintsAndRequestTolerationsAreRead() {
    ResourceSlice slice =
        DraManifests.resourceSlice(
            "s",
            "{\"spec\":{"
                + POOL
                + ",\"nodeName\":\"n1\",\"devices\":[{\"name\":\"a\",\"taints\":[{\"key\":"
                + "\"maintenance\",\"value\":\"true\",\"effect\":\"NoExecute\","
                + "\"timeAdded\":\"2026-12-01T10:00:00Z\"}]}]}}");
    ResourceClaim claim =
        DraManifests.resourceClaim(
            "ml",
            "c",
            "{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"firstAvailable\":"
                + "[{\"name\":\"any\",\"deviceClassName\":\"g\",\"tolerations\":[{\"key\":"
                + "\"maintenance\",\"operator\":\"Exists\",\"effect\":\"NoExecute\","
                + "\"tolerationSeconds\":60}]}]}]}}}");

    assertThat(slice.devices().get(0).taints())
        .containsExactly(new Taint("maintenance", "true", TaintEffect.NO_EXECUTE));
    assertThat(claim.requests().get(0).firstAvailable().get(0).tolerations())
        .containsExactly(
            new Toleration(
                "maintenance", TolerationOperator.EXISTS, "", Optional.of(TaintEffect.NO_EXECUTE)));
  }

  @Test
  void aDeviceTaintWithAPodOnlyEffectNamesTheField() {
    assertThatThrownBy(
            () ->
                DraManifests.resourceSlice(
                    "s",
                    "{\"spec\":{"
                        + POOL
                        + ",\"nodeName\":\"n1\",\"devices\":[{\"name\":\"a\",\"taints\":"
                        + "[{\"key\":\"k\",\"effect\":\"PreferNoSchedule\"}]}]}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("spec.devices[0].taints[0].effect:");
  }

  @Test
  void sharedCountersAndTheirConsumptionAreRead() {
    ResourceSlice slice =
        DraManifests.resourceSlice(
            "s",
            "{\"spec\":{"
                + POOL
                + ",\"nodeName\":\"n1\",\"sharedCounters\":[{\"name\":\"gpu-0\",\"counters\":"
                + "{\"memory\":{\"value\":\"80Gi\"}}}],\"devices\":[{\"name\":\"mig\","
                + "\"consumesCounters\":[{\"counterSet\":\"gpu-0\",\"counters\":{\"memory\":"
                + "{\"value\":\"40Gi\"}}}]}]}}");

    assertThat(slice.sharedCounters())
        .containsExactly(
            new CounterSet(
                "gpu-0", ImmutableSortedMap.of("memory", BigDecimal.valueOf(80L << 30))));
    assertThat(slice.devices().get(0).consumesCounters())
        .containsExactly(
            new DeviceCounterConsumption(
                "gpu-0", ImmutableSortedMap.of("memory", BigDecimal.valueOf(40L << 30))));
  }

  @Test
  void aClaimKeepsItsMetadataLabels() {
    ResourceClaim claim =
        DraManifests.resourceClaim(
            "ml",
            "c",
            "{\"metadata\":{\"name\":\"c\",\"labels\":{\"kai.scheduler/queue\":\"team-a\"}},"
                + "\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":"
                + "{\"deviceClassName\":\"gpu.gantry.io\"}}]}}}");

    assertThat(claim.labels())
        .containsExactly(java.util.Map.entry("kai.scheduler/queue", "team-a"));
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
  void aClaimsConfigFromTheApiServerKeepsItsParametersAsJson() {
    ResourceClaim claim =
        DraManifests.resourceClaim(
            "ml",
            "c",
            "{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":"
                + "{\"deviceClassName\":\"gpu.gantry.io\"}}],\"config\":[{\"requests\":"
                + "[\"gpu\"],\"opaque\":{\"driver\":\"gpu.gantry.io\",\"parameters\":"
                + "{\"computeMode\":\"mps\",\"memoryMiB\":20000,\"fraction\":0.25}}}]}}}");

    assertThat(claim.config())
        .containsExactly(
            new ClaimConfig(
                ImmutableList.of("gpu"),
                new OpaqueConfig(
                    "gpu.gantry.io",
                    "{\"computeMode\":\"mps\",\"memoryMiB\":20000,\"fraction\":0.25}")));
  }

  @Test
  void aClaimConfigNamingAnUnknownRequestNamesTheField() {
    assertThatThrownBy(
            () ->
                DraManifests.resourceClaim(
                    "ml",
                    "c",
                    "{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":"
                        + "{\"deviceClassName\":\"gpu.gantry.io\"}}],\"config\":[{\"requests\":"
                        + "[\"gpus\"],\"opaque\":{\"driver\":\"d\",\"parameters\":{}}}]}}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "spec.devices.config[0].requests[0]: must be the name of a request in the claim or the"
                + " name of a request and a subrequest separated by '/', got \"gpus\"");
  }

  @Test
  void aFieldTheEngineDoesNotActOnIsRefusedByName() {
    assertThatThrownBy(
            () ->
                DraManifests.resourceSlice(
                    "s",
                    "{\"spec\":{\"driver\":\"d\",\"nodeName\":\"n\",\"pool\":{\"name\":\"p\","
                        + "\"generation\":1,\"resourceSliceCount\":1},\"devices\":[{\"name\":\"a\","
                        + "\"bindsToNode\":true}]}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.devices[0].bindsToNode: unknown field");
  }

  @Test
  void anObjectWithoutSpecSaysSo() {
    assertThatThrownBy(() -> DraManifests.deviceClass("x", "{\"metadata\":{\"name\":\"x\"}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec: is required");
  }
}
