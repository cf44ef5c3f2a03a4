package io.gantry.deviceagent.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.deviceagent.deviceplugin.GpuHealthChange;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.discovery.NvlinkDomains;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvidiasmi.TopologyMatrixParser;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Gpus;
import io.gantry.proto.nodeagent.v1.NodeAgentProto;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.DomainSource;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Gpu;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.HealthEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.LinkType;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.MigInstance;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.MigMode;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Node;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.NvlinkDomain;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inventory model as node-agent v1 messages, pinned on real nvidia-smi outputs. */
class NodeMessagesTest {
  private static final Instant TAKEN = Instant.ofEpochMilli(1_764_600_000_123L);

  @TempDir Path tmp;

  private GpuInventory discover(FakeNvidiaSmi fake) throws Exception {
    Path executable = fake.install();
    return new GpuDiscovery(NvidiaSmi.locate(executable.toString(), "", Duration.ofSeconds(10)))
        .discover();
  }

  private static NodeAgentProto.GpuHealth healthy() {
    return NodeAgentProto.GpuHealth.newBuilder()
        .setStatus(NodeAgentProto.HealthStatus.HEALTH_STATUS_HEALTHY)
        .build();
  }

  @Test
  void hgxH100IsEightGpusInOneFabricDomainWithoutALinkMatrix() throws Exception {
    Node node =
        NodeMessages.node(
            "gpu-0", discover(FakeNvidiaSmi.replaying(tmp, Fixtures.HGX_H100)), TAKEN);

    assertThat(node.getNodeName()).isEqualTo("gpu-0");
    assertThat(node.getDriverVersion()).isEqualTo("580.105.08");
    assertThat(node.getCudaVersion()).isEqualTo("13.0");
    assertThat(node.getLinkMatrixAvailable()).isFalse();
    assertThat(node.getGpuLinksList()).isEmpty();
    assertThat(node.getDiscoveredAtUnixMillis()).isEqualTo(1_764_600_000_123L);
    assertThat(node.getGpusList()).hasSize(8);
    assertThat(node.getGpus(0))
        .isEqualTo(
            Gpu.newBuilder()
                .setIndex(0)
                .setUuid("GPU-00000000-0000-0000-0000-000000000000")
                .setPciBusId("00000000:53:00.0")
                .setProductName("NVIDIA H100 80GB HBM3")
                .setMemoryMib(81559)
                .setMigMode(MigMode.MIG_MODE_DISABLED)
                .setHealth(healthy())
                .build());
    assertThat(node.getGpusList())
        .extracting(Gpu::getIndex)
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(node.getGpusList()).noneMatch(Gpu::hasNumaNode);
    assertThat(node.getNvlinkDomainsList())
        .containsExactly(
            NvlinkDomain.newBuilder()
                .setId("local-0")
                .addAllGpuIndices(List.of(0, 1, 2, 3, 4, 5, 6, 7))
                .setAllToAll(true)
                .setClique("")
                .addSources(DomainSource.DOMAIN_SOURCE_FABRIC)
                .build());
  }

  @Test
  void dgx1MatrixGivesEveryPairAndOneCubeMeshDomainThatIsNotAllToAll() throws Exception {
    List<GpuLink> links = TopologyMatrixParser.parse(Fixtures.read(Fixtures.TOPO_DGX1)).links();
    List<GpuDevice> gpus = Gpus.plain(8);
    GpuInventory inventory =
        new GpuInventory(
            "418.67", Optional.empty(), gpus, true, links, NvlinkDomains.derive(gpus, links));

    Node node = NodeMessages.node("dgx-1", inventory, TAKEN);

    assertThat(node.getCudaVersion()).isEmpty();
    assertThat(node.getLinkMatrixAvailable()).isTrue();
    assertThat(node.getGpuLinksList()).hasSize(28);
    assertThat(node.getGpuLinksList().subList(0, 7))
        .containsExactly(
            link(0, 1, LinkType.LINK_TYPE_NVLINK, 1),
            link(0, 2, LinkType.LINK_TYPE_NVLINK, 1),
            link(0, 3, LinkType.LINK_TYPE_NVLINK, 2),
            link(0, 4, LinkType.LINK_TYPE_NVLINK, 2),
            link(0, 5, LinkType.LINK_TYPE_SYS, 0),
            link(0, 6, LinkType.LINK_TYPE_SYS, 0),
            link(0, 7, LinkType.LINK_TYPE_SYS, 0));
    assertThat(node.getGpuLinksList().get(27)).isEqualTo(link(6, 7, LinkType.LINK_TYPE_NVLINK, 2));
    assertThat(node.getNvlinkDomainsList())
        .containsExactly(
            NvlinkDomain.newBuilder()
                .setId("local-0")
                .addAllGpuIndices(List.of(0, 1, 2, 3, 4, 5, 6, 7))
                .setAllToAll(false)
                .addSources(DomainSource.DOMAIN_SOURCE_LINK_MATRIX)
                .build());
    assertThat(node.getGpus(7))
        .isEqualTo(
            Gpu.newBuilder()
                .setIndex(7)
                .setUuid("GPU-00000007-0000-0000-0000-000000000000")
                .setPciBusId("00000000:08:00.0")
                .setProductName("Test GPU")
                .setMemoryMib(1024)
                .setMigMode(MigMode.MIG_MODE_DISABLED)
                .setHealth(healthy())
                .build());
  }

  @Test
  void migInstancesKeepKnownProfilesAndLeaveUnknownOnesEmpty() throws Exception {
    // nvidia-smi -L for the A100 MIG fixture was not recorded; this line follows its format.
    String list =
        """
        GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-513536b6-7d19-9063-b049-1e69664bb298)
          MIG 1g.20gb     Device  0: (UUID: MIG-aaaaaaaa-0000-0000-0000-000000000000)
        """;
    Node node =
        NodeMessages.node(
            "a100",
            discover(
                FakeNvidiaSmi.in(tmp)
                    .answer("-q -x", Fixtures.read(Fixtures.A100_80GB_MIG))
                    .fail("topo -m", 3, "", "not recorded")
                    .answer("-L", list)),
            TAKEN);

    Gpu gpu = node.getGpus(0);
    assertThat(gpu.getMigMode()).isEqualTo(MigMode.MIG_MODE_ENABLED);
    assertThat(gpu.getMigInstancesList()).hasSize(4);
    MigInstance first = gpu.getMigInstances(0);
    assertThat(first.getIndex()).isZero();
    assertThat(first.getProfile()).isEqualTo("1g.20gb");
    assertThat(first.getUuid()).isEqualTo("MIG-aaaaaaaa-0000-0000-0000-000000000000");
    assertThat(first.getMemoryMib()).isPositive();
    assertThat(first.hasMultiprocessorCount()).isTrue();
    MigInstance last = gpu.getMigInstances(3);
    assertThat(last.getProfile()).isEmpty();
    assertThat(last.getUuid()).isEmpty();
  }

  @Test
  void anUnhealthyGpuCarriesItsReasonsAndItsChangeTheStatusBefore() {
    GpuHealth xid = new GpuHealth(HealthStatus.UNHEALTHY, List.of("XID 79 reported by the driver"));
    GpuDevice gpu = Gpus.gpu(0, Optional.empty()).withHealth(xid);
    Node node =
        NodeMessages.node(
            "n",
            new GpuInventory(
                "580.1", Optional.of("13.0"), List.of(gpu), false, List.of(), List.of()),
            TAKEN);
    NodeAgentProto.GpuHealth unhealthy =
        NodeAgentProto.GpuHealth.newBuilder()
            .setStatus(NodeAgentProto.HealthStatus.HEALTH_STATUS_UNHEALTHY)
            .addReasons("XID 79 reported by the driver")
            .build();

    assertThat(node.getGpus(0).getHealth()).isEqualTo(unhealthy);
    assertThat(NodeMessages.healthEvent(new GpuHealthChange(3, "GPU-3", HealthStatus.HEALTHY, xid)))
        .isEqualTo(
            HealthEvent.newBuilder()
                .setGpuIndex(3)
                .setGpuUuid("GPU-3")
                .setPreviousStatus(NodeAgentProto.HealthStatus.HEALTH_STATUS_HEALTHY)
                .setHealth(unhealthy)
                .build());
  }

  private static NodeAgentProto.GpuLink link(int a, int b, LinkType type, int nvlinks) {
    return NodeAgentProto.GpuLink.newBuilder()
        .setGpuIndexA(a)
        .setGpuIndexB(b)
        .setType(type)
        .setNvlinkCount(nvlinks)
        .build();
  }
}
