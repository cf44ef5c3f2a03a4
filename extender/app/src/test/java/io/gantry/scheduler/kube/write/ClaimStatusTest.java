package io.gantry.scheduler.kube.write;

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
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceAllocationConfiguration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A claim's {@code status.allocation} written and read back, its opaque config and node selector
 * included.
 */
class ClaimStatusTest {
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
  private static final ImmutableList<DeviceResult> DEVICES =
      ImmutableList.of(new DeviceResult("net", "net.example.com", "rack-a", "uplink-0"));

  private static JsonNode claimWith(String allocationJson) throws Exception {
    return claimWith(MAPPER.readTree(allocationJson));
  }

  private static JsonNode claimWith(JsonNode allocation) {
    ObjectNode claim = MAPPER.createObjectNode();
    claim.putObject("status").set("allocation", allocation);
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

  @Test
  void aNodeLocalAllocationIsWrittenAsKubeSchedulerWritesIt() throws Exception {
    AllocationResult onNode = AllocationResult.onNode(DEVICES, ImmutableList.of(), "n1");

    ObjectNode written = ClaimStatus.json(onNode);

    assertThat(written.get("nodeSelector"))
        .isEqualTo(
            MAPPER.readTree(
                "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\","
                    + "\"operator\":\"In\",\"values\":[\"n1\"]}]}]}"));
    assertThat(ClaimStatus.allocation(claimWith(written))).contains(onNode);
  }

  @Test
  void aSelectorAllocationIsWrittenAndReadBackWithEveryTerm() throws Exception {
    AllocationResult inRackA =
        new AllocationResult(
            DEVICES,
            ImmutableList.of(),
            ImmutableList.of(
                new NodeSelectorTerm(
                    ImmutableList.of(
                        NodeSelectorRequirement.of("rack", SelectorOperator.IN, "a"),
                        NodeSelectorRequirement.of("fabric", SelectorOperator.EXISTS)),
                    ImmutableList.of()),
                NodeSelectorTerm.ofExpressions(
                    NodeSelectorRequirement.of("rack", SelectorOperator.IN, "spare"))));

    ObjectNode written = ClaimStatus.json(inRackA);

    assertThat(written.get("nodeSelector"))
        .isEqualTo(
            MAPPER.readTree(
                "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"rack\",\"operator\":"
                    + "\"In\",\"values\":[\"a\"]},{\"key\":\"fabric\",\"operator\":\"Exists\"}]},"
                    + "{\"matchExpressions\":[{\"key\":\"rack\",\"operator\":\"In\",\"values\":"
                    + "[\"spare\"]}]}]}"));
    assertThat(ClaimStatus.allocation(claimWith(written))).contains(inRackA);
    assertThat(
            ClaimStatus.json(new AllocationResult(DEVICES, ImmutableList.of(), ImmutableList.of()))
                .has("nodeSelector"))
        .isFalse();
  }

  @Test
  void aBadAllocationNodeSelectorNamesTheField() throws Exception {
    ObjectNode allocation =
        ClaimStatus.json(AllocationResult.onNode(DEVICES, ImmutableList.of(), "n1"));
    allocation.set(
        "nodeSelector",
        MAPPER.readTree(
            "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.labels\","
                + "\"operator\":\"In\",\"values\":[\"x\"]}]}]}"));

    assertThatThrownBy(() -> ClaimStatus.allocation(claimWith(allocation)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "status.allocation.nodeSelector.nodeSelectorTerms[0].matchFields[0].key: expected"
                + " metadata.name, the only node field");
  }
}
