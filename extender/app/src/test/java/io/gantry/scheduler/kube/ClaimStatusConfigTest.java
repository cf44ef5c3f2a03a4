package io.gantry.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.AllocationConfig;
import io.gantry.scheduler.model.dra.AllocationConfig.Source;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceAllocationConfiguration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A claim's {@code status.allocation} written and read back, its opaque config included. */
class ClaimStatusConfigTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String MPS =
      "{\"apiVersion\":\"gpu.gantry.io/v1\",\"kind\":\"GpuSharingConfig\","
          + "\"computeMode\":\"mps\",\"memoryMiB\":20000}";
  private static final AllocationResult ALLOCATION =
      AllocationResult.onNode(
          ImmutableList.of(new DeviceResult("gpu", "gpu.gantry.io", "n1", "gpu-3")),
          ImmutableList.of(
              new AllocationConfig(
                  Source.FROM_CLASS,
                  ImmutableList.of("gpu"),
                  new OpaqueConfig("gpu.gantry.io", "{\"fraction\":0.5}")),
              new AllocationConfig(
                  Source.FROM_CLAIM, ImmutableList.of(), new OpaqueConfig("gpu.gantry.io", MPS))),
          "n1");

  private static JsonNode claimWith(String allocationJson) throws Exception {
    ObjectNode claim = MAPPER.createObjectNode();
    claim.putObject("status").set("allocation", MAPPER.readTree(allocationJson));
    return claim;
  }

  @Test
  void theConfigIsWrittenAfterTheResultsWithItsSourceRequestsAndParameters() {
    assertThat(ClaimStatus.json(ALLOCATION).toString())
        .isEqualTo(
            "{\"devices\":{\"results\":[{\"request\":\"gpu\",\"driver\":\"gpu.gantry.io\","
                + "\"pool\":\"n1\",\"device\":\"gpu-3\"}],"
                + "\"config\":[{\"source\":\"FromClass\",\"requests\":[\"gpu\"],"
                + "\"opaque\":{\"driver\":\"gpu.gantry.io\",\"parameters\":{\"fraction\":0.5}}},"
                + "{\"source\":\"FromClaim\",\"opaque\":{\"driver\":\"gpu.gantry.io\","
                + "\"parameters\":"
                + MPS
                + "}}]},"
                + "\"nodeSelector\":{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":"
                + "\"metadata.name\",\"operator\":\"In\",\"values\":[\"n1\"]}]}]}}");
  }

  @Test
  void clientJavasModelReadsTheWrittenConfig() {
    V1AllocationResult read =
        JSON.getGson().fromJson(ClaimStatus.json(ALLOCATION).toString(), V1AllocationResult.class);

    V1DeviceAllocationConfiguration fromClaim = read.getDevices().getConfig().get(1);
    assertThat(fromClaim.getSource()).isEqualTo("FromClaim");
    assertThat(fromClaim.getOpaque().getDriver()).isEqualTo("gpu.gantry.io");
    assertThat(fromClaim.getOpaque().getParameters()).isInstanceOf(Map.class);
    assertThat(((Map<?, ?>) fromClaim.getOpaque().getParameters()).get("computeMode"))
        .isEqualTo("mps");
    assertThat(read.getDevices().getConfig().get(0).getRequests()).containsExactly("gpu");
  }

  @Test
  void whatIsWrittenReadsBackEqual() throws Exception {
    assertThat(ClaimStatus.allocation(claimWith(ClaimStatus.json(ALLOCATION).toString())))
        .contains(ALLOCATION);
  }

  @Test
  void aConfigWithAnUnknownSourceNamesTheField() {
    assertThatThrownBy(
            () ->
                ClaimStatus.allocation(
                    claimWith(
                        "{\"devices\":{\"results\":[],\"config\":[{\"source\":\"FromNode\","
                            + "\"opaque\":{\"driver\":\"d\",\"parameters\":{}}}]}}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "status.allocation.devices.config[0].source: expected FromClass or FromClaim, got"
                + " \"FromNode\"");
  }

  @Test
  void parametersThatAreNotAnObjectNameTheField() {
    assertThatThrownBy(
            () ->
                ClaimStatus.allocation(
                    claimWith(
                        "{\"devices\":{\"results\":[],\"config\":[{\"source\":\"FromClaim\","
                            + "\"opaque\":{\"driver\":\"d\",\"parameters\":[1]}}]}}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "status.allocation.devices.config[0].opaque.parameters: expected a JSON object, got"
                + " [1]");
  }
}
