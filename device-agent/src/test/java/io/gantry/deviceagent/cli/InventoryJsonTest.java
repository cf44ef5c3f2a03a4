package io.gantry.deviceagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.nodecommon.discovery.NvlinkDomains;
import io.gantry.nodecommon.nvidiasmi.QueryXmlParser;
import io.gantry.nodecommon.nvidiasmi.SmiQuery;
import io.gantry.nodecommon.testing.Fixtures;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class InventoryJsonTest {

  @Test
  void migGpuIsWrittenWithEveryKeyInOrder() throws Exception {
    SmiQuery q = QueryXmlParser.parse(Fixtures.read(Fixtures.A100_80GB_MIG));
    GpuDevice gpu = q.devices().get(0).withNumaNode(OptionalInt.of(1));
    gpu =
        gpu.withMigInstances(
            List.of(
                gpu.migInstances().get(0).withIdentity("1g.20gb", "MIG-x"),
                gpu.migInstances().get(1)));
    GpuInventory inventory =
        new GpuInventory(
            q.driverVersion(), q.cudaVersion(), List.of(gpu), true, List.of(), List.of());

    assertThat(InventoryJson.toJson(inventory))
        .isEqualToNormalizingNewlines(
            """
            {
              "driverVersion" : "535.54.03",
              "cudaVersion" : "12.2",
              "gpuCount" : 1,
              "devices" : [ {
                "index" : 0,
                "uuid" : "GPU-513536b6-7d19-9063-b049-1e69664bb298",
                "pciBusId" : "00000000:01:00.0",
                "productName" : "NVIDIA A100-SXM4-80GB",
                "memoryMib" : 81920,
                "migMode" : "enabled",
                "migInstances" : [ {
                  "index" : 0,
                  "gpuInstanceId" : 3,
                  "computeInstanceId" : 0,
                  "profile" : "1g.20gb",
                  "uuid" : "MIG-x",
                  "memoryMib" : 19968,
                  "multiprocessorCount" : 14
                }, {
                  "index" : 1,
                  "gpuInstanceId" : 4,
                  "computeInstanceId" : 0,
                  "profile" : null,
                  "uuid" : null,
                  "memoryMib" : 19968,
                  "multiprocessorCount" : 14
                } ],
                "numaNode" : 1,
                "health" : {
                  "status" : "healthy",
                  "reasons" : [ ]
                },
                "fabric" : null
              } ],
              "nvlinkDomains" : [ ],
              "linkMatrixAvailable" : true,
              "gpuLinks" : [ ]
            }
            """);
  }

  @Test
  void domainsLinksAndFabricAreWritten() throws Exception {
    List<GpuDevice> gpus =
        QueryXmlParser.parse(Fixtures.read(Fixtures.GB200)).devices().subList(0, 2);
    List<GpuLink> links = List.of(new GpuLink(0, 1, LinkType.NVLINK, 18));
    GpuInventory inventory =
        new GpuInventory(
            "580.173.02", Optional.empty(), gpus, true, links, NvlinkDomains.derive(gpus, links));

    JsonNode json = new ObjectMapper().readTree(InventoryJson.toJson(inventory));

    assertThat(json.get("cudaVersion").isNull()).isTrue();
    assertThat(json.get("devices").get(1).get("fabric").toString())
        .isEqualTo("{\"clusterUuid\":\"00000001-0000-0000-0000-000000000001\",\"cliqueId\":2}");
    assertThat(json.get("nvlinkDomains").toString())
        .isEqualTo(
            "[{\"id\":\"00000001-0000-0000-0000-000000000001.2\",\"gpuIndices\":[0,1],"
                + "\"allToAll\":true,\"clique\":\"00000001-0000-0000-0000-000000000001.2\","
                + "\"sources\":[\"link_matrix\",\"fabric\"]}]");
    assertThat(json.get("gpuLinks").toString())
        .isEqualTo("[{\"gpuIndexA\":0,\"gpuIndexB\":1,\"type\":\"nvlink\",\"nvlinkCount\":18}]");
  }
}
