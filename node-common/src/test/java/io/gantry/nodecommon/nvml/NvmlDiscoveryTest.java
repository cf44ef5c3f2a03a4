package io.gantry.nodecommon.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvml;
import io.gantry.nodecommon.testing.Fixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * NVML discovery through a fake NVML that answers from the same recordings the fake nvidia-smi
 * replays: both paths must give equal inventories.
 */
class NvmlDiscoveryTest {
  private static final String ONE_GPU_TOPO = Fixtures.captureSection("capabilities :: topo -m");

  /** -L for the A100 MIG fixture: its GPU UUID, four 2g.20gb devices (19968 MiB, 14 SMs each). */
  private static final String A100_MIG_LIST =
      """
      GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-513536b6-7d19-9063-b049-1e69664bb298)
        MIG 2g.20gb     Device  0: (UUID: MIG-11111111-0000-0000-0000-000000000000)
        MIG 2g.20gb     Device  1: (UUID: MIG-11111111-0000-0000-0000-000000000001)
        MIG 2g.20gb     Device  2: (UUID: MIG-11111111-0000-0000-0000-000000000002)
        MIG 2g.20gb     Device  3: (UUID: MIG-11111111-0000-0000-0000-000000000003)
      """;

  @TempDir Path tmp;

  private GpuInventory viaNvidiaSmi(FakeNvidiaSmi fake) throws Exception {
    fake.install();
    return new GpuDiscovery(NvidiaSmi.locate("nvidia-smi", tmp.toString(), Duration.ofSeconds(10)))
        .discover();
  }

  @Test
  void hgxH100GivesTheInventoryNvidiaSmiGives() throws Exception {
    GpuInventory nvml = new NvmlDiscovery(FakeNvml.replaying(Fixtures.HGX_H100)).discover();

    assertThat(nvml).isEqualTo(viaNvidiaSmi(FakeNvidiaSmi.replaying(tmp, Fixtures.HGX_H100)));
    assertThat(nvml.driverVersion()).isEqualTo("580.105.08");
    assertThat(nvml.cudaVersion()).contains("13.0");
    assertThat(nvml.devices()).hasSize(8);
    assertThat(nvml.devices().get(0).memoryMib()).isEqualTo(81559);
    assertThat(nvml.devices().get(7).pciBusId()).isEqualTo("00000000:CA:00.0");
    assertThat(nvml.nvlinkDomains())
        .extracting(NvlinkDomain::id, NvlinkDomain::gpuIndices, NvlinkDomain::allToAll)
        .containsExactly(tuple("local-0", List.of(0, 1, 2, 3, 4, 5, 6, 7), true));
  }

  @Test
  void gb200FabricCliqueIsTheSameThroughNvml() throws Exception {
    GpuInventory nvml = new NvmlDiscovery(FakeNvml.replaying(Fixtures.GB200)).discover();

    assertThat(nvml).isEqualTo(viaNvidiaSmi(FakeNvidiaSmi.replaying(tmp, Fixtures.GB200)));
    assertThat(nvml.nvlinkDomains())
        .extracting(NvlinkDomain::id)
        .containsExactly("00000001-0000-0000-0000-000000000001.2");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        Fixtures.A100_40GB,
        Fixtures.A10G,
        Fixtures.RTX_3060,
        Fixtures.TESLA_T4,
        Fixtures.A100_80GB_MIG
      })
  void oneGpuMachinesGiveTheInventoryNvidiaSmiGives(String fixture) throws Exception {
    String xml = Fixtures.read(fixture);
    GpuInventory nvml =
        new NvmlDiscovery(FakeNvml.of(xml, Optional.of(ONE_GPU_TOPO), Optional.of(A100_MIG_LIST)))
            .discover();

    assertThat(nvml)
        .isEqualTo(
            viaNvidiaSmi(
                FakeNvidiaSmi.in(tmp)
                    .answer("-q -x", xml)
                    .answer("topo -m", ONE_GPU_TOPO)
                    .answer("-L", A100_MIG_LIST)));
    assertThat(nvml.linkMatrixAvailable()).isTrue();
    assertThat(nvml.devices().get(0).numaNode()).isEqualTo(OptionalInt.of(0));
  }

  @Test
  void migDevicesComeFromTheMigHandles() throws Exception {
    GpuInventory nvml =
        new NvmlDiscovery(
                FakeNvml.of(
                    Fixtures.read(Fixtures.A100_80GB_MIG),
                    Optional.empty(),
                    Optional.of(A100_MIG_LIST)))
            .discover();

    assertThat(nvml.devices().get(0).migInstances())
        .extracting(
            MigInstance::index,
            MigInstance::gpuInstanceId,
            MigInstance::profile,
            MigInstance::uuid,
            MigInstance::memoryMib,
            MigInstance::multiprocessorCount)
        .containsExactly(
            tuple(
                0,
                3,
                Optional.of("2g.20gb"),
                Optional.of("MIG-11111111-0000-0000-0000-000000000000"),
                19968L,
                OptionalInt.of(14)),
            tuple(
                1,
                4,
                Optional.of("2g.20gb"),
                Optional.of("MIG-11111111-0000-0000-0000-000000000001"),
                19968L,
                OptionalInt.of(14)),
            tuple(
                2,
                5,
                Optional.of("2g.20gb"),
                Optional.of("MIG-11111111-0000-0000-0000-000000000002"),
                19968L,
                OptionalInt.of(14)),
            tuple(
                3,
                6,
                Optional.of("2g.20gb"),
                Optional.of("MIG-11111111-0000-0000-0000-000000000003"),
                19968L,
                OptionalInt.of(14)));
  }

  @Test
  void nvlinksAndPcieLevelsGiveTheLinkMatrixOfTopoM() throws Exception {
    // The HGX H100 -q -x with the DGX-1 V100 matrix (both 8 GPUs): only the join by GPU index and
    // the NV# counts from NVLink remote PCI ends are under test.
    String xml = Fixtures.read(Fixtures.HGX_H100);
    String topo = Fixtures.read(Fixtures.TOPO_DGX1);
    GpuInventory nvml =
        new NvmlDiscovery(FakeNvml.of(xml, Optional.of(topo), Optional.empty())).discover();

    assertThat(nvml)
        .isEqualTo(
            viaNvidiaSmi(FakeNvidiaSmi.in(tmp).answer("-q -x", xml).answer("topo -m", topo)));
    assertThat(nvml.linkMatrixAvailable()).isTrue();
    assertThat(nvml.gpuLinks()).hasSize(28);
    assertThat(nvml.gpuLinks()).filteredOn(l -> l.type() == LinkType.NVLINK).isNotEmpty();
    assertThat(nvml.gpuLinks())
        .filteredOn(l -> l.type() != LinkType.NVLINK)
        .extracting(GpuLink::nvlinkCount)
        .containsOnly(0);
  }

  @Test
  void aMachineWithoutGpusIsNoDevices() {
    FakeNvml empty =
        FakeNvml.of(
            "<nvidia_smi_log><driver_version>580.105.08</driver_version>"
                + "<cuda_version>13.0</cuda_version></nvidia_smi_log>",
            Optional.empty(),
            Optional.empty());

    assertThatThrownBy(() -> new NvmlDiscovery(empty).discover())
        .isInstanceOf(NvmlException.class)
        .hasMessage("no NVIDIA GPU found: NVML reports no devices")
        .satisfies(e -> assertThat(((NvmlException) e).unreadable()).isFalse());
  }

  @Test
  void cudaVersionIsPrintedAsNvidiaSmiPrintsIt() {
    assertThat(NvmlDiscovery.cudaVersion(13000)).isEqualTo("13.0");
    assertThat(NvmlDiscovery.cudaVersion(12080)).isEqualTo("12.8");
    assertThat(NvmlDiscovery.cudaVersion(11070)).isEqualTo("11.7");
  }
}
