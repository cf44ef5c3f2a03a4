package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.ClaimConfig;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourceSlice;
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
                ImmutableSortedMap.of(),
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
    assertThat(slice.nodeName()).contains("n1");
    assertThat(slice.pool().generation()).isEqualTo(3);
    assertThat(slice.devices().get(0).capacity()).containsEntry("memory", "80Gi");
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
