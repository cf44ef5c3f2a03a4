package io.gantry.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import org.junit.jupiter.api.Test;

/** A claim's status.allocation as written and read back, node selector included. */
class ClaimStatusNodeSelectorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ImmutableList<DeviceResult> DEVICES =
      ImmutableList.of(new DeviceResult("net", "net.example.com", "rack-a", "uplink-0"));

  private static JsonNode claimWith(ObjectNode allocation) {
    ObjectNode claim = JsonNodeFactory.instance.objectNode();
    claim.putObject("status").set("allocation", allocation);
    return claim;
  }

  @Test
  void aNodeLocalAllocationIsWrittenAsKubeSchedulerWritesIt() throws Exception {
    AllocationResult onNode = AllocationResult.onNode(DEVICES, ImmutableList.of(), "n1");

    ObjectNode written = ClaimStatus.json(onNode);

    assertThat(written.get("nodeSelector"))
        .isEqualTo(
            JSON.readTree(
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
            JSON.readTree(
                "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"rack\",\"operator\":"
                    + "\"In\",\"values\":[\"a\"]},{\"key\":\"fabric\",\"operator\":\"Exists\"}]},"
                    + "{\"matchExpressions\":[{\"key\":\"rack\",\"operator\":\"In\",\"values\":"
                    + "[\"spare\"]}]}]}"));
    assertThat(ClaimStatus.allocation(claimWith(written))).contains(inRackA);
    assertThat(ClaimStatus.json(inRackA).has("nodeSelector")).isTrue();
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
        JSON.readTree(
            "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.labels\","
                + "\"operator\":\"In\",\"values\":[\"x\"]}]}]}"));

    assertThatThrownBy(() -> ClaimStatus.allocation(claimWith(allocation)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "status.allocation.nodeSelector.nodeSelectorTerms[0].matchFields[0].key: expected"
                + " metadata.name, the only node field");
  }
}
