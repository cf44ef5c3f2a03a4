package io.gantry.nodecommon.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException.Reason;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs discovery against a fake nvidia-smi script, through the real process wrapper. */
class GpuDiscoveryTest {
  @TempDir Path tmp;

  private GpuInventory discover(FakeNvidiaSmi fake) throws NvidiaSmiException {
    fake.install();
    return new GpuDiscovery(NvidiaSmi.locate("nvidia-smi", tmp.toString(), Duration.ofSeconds(10)))
        .discover();
  }

  @Test
  void hgxH100WithoutTopologyIsEightGpusInOneFabricDomain() throws Exception {
    GpuInventory inventory = discover(FakeNvidiaSmi.replaying(tmp, Fixtures.HGX_H100));

    assertThat(inventory.driverVersion()).isEqualTo("580.105.08");
    assertThat(inventory.devices()).hasSize(8);
    assertThat(inventory.linkMatrixAvailable()).isFalse();
    assertThat(inventory.gpuLinks()).isEmpty();
    assertThat(inventory.nvlinkDomains())
        .extracting(NvlinkDomain::id, NvlinkDomain::gpuIndices)
        .containsExactly(tuple("local-0", List.of(0, 1, 2, 3, 4, 5, 6, 7)));
  }

  @Test
  void numaNodesAndLinksComeFromTheMatrix() throws Exception {
    // A 1-GPU -q -x paired with the 1-GPU topo -m of another machine (the H100 capture): only the
    // join by GPU index is under test.
    GpuInventory inventory =
        discover(
            FakeNvidiaSmi.in(tmp)
                .answer("-q -x", Fixtures.read(Fixtures.A100_40GB))
                .answer("topo -m", Fixtures.captureSection("capabilities :: topo -m")));

    assertThat(inventory.linkMatrixAvailable()).isTrue();
    assertThat(inventory.devices().get(0).numaNode()).isEqualTo(OptionalInt.of(0));
  }

  @Test
  void aMatrixWithAnotherGpuCountIsIgnored() throws Exception {
    GpuInventory inventory =
        discover(
            FakeNvidiaSmi.in(tmp)
                .answer("-q -x", Fixtures.read(Fixtures.TESLA_T4))
                .answer("topo -m", Fixtures.read(Fixtures.TOPO_DGX1)));

    assertThat(inventory.linkMatrixAvailable()).isFalse();
    assertThat(inventory.nvlinkDomains()).isEmpty();
    assertThat(inventory.devices().get(0).numaNode()).isEmpty();
  }

  @Test
  void anUnreadableMatrixIsSkipped() throws Exception {
    GpuInventory inventory =
        discover(
            FakeNvidiaSmi.in(tmp)
                .answer("-q -x", Fixtures.read(Fixtures.TESLA_T4))
                .answer("topo -m", "GPU0 is fine\n"));

    assertThat(inventory.linkMatrixAvailable()).isFalse();
    assertThat(inventory.devices()).hasSize(1);
  }

  @Test
  void migProfilesAndUuidsComeFromTheList() throws Exception {
    // nvidia-smi -L for the A100 MIG fixture was not recorded; these lines follow its format.
    String list =
        """
        GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-513536b6-7d19-9063-b049-1e69664bb298)
          MIG 1g.20gb     Device  0: (UUID: MIG-aaaaaaaa-0000-0000-0000-000000000000)
          MIG 1g.20gb     Device  1: (UUID: MIG-aaaaaaaa-0000-0000-0000-000000000001)
          MIG 1g.20gb     Device  2: (UUID: MIG-aaaaaaaa-0000-0000-0000-000000000002)
        """;
    GpuInventory inventory =
        discover(
            FakeNvidiaSmi.in(tmp)
                .answer("-q -x", Fixtures.read(Fixtures.A100_80GB_MIG))
                .fail("topo -m", 3, "", "not recorded")
                .answer("-L", list));

    List<MigInstance> migs = inventory.devices().get(0).migInstances();
    assertThat(migs)
        .extracting(MigInstance::profile)
        .containsExactly(
            Optional.of("1g.20gb"),
            Optional.of("1g.20gb"),
            Optional.of("1g.20gb"),
            Optional.empty());
    assertThat(migs.get(2).uuid()).contains("MIG-aaaaaaaa-0000-0000-0000-000000000002");
    assertThat(migs.get(3).uuid()).isEmpty();
  }

  @Test
  void withoutTheListMigInstancesKeepWhatTheXmlSays() throws Exception {
    GpuDevice gpu = discover(FakeNvidiaSmi.replaying(tmp, Fixtures.A100_80GB_MIG)).devices().get(0);

    assertThat(gpu.migInstances()).hasSize(4);
    assertThat(gpu.migInstances()).allSatisfy(m -> assertThat(m.profile()).isEmpty());
  }

  @Test
  void theListIsNotRunWithoutMig() throws Exception {
    FakeNvidiaSmi fake = FakeNvidiaSmi.replaying(tmp, Fixtures.GB200);

    assertThat(discover(fake).devices()).hasSize(4);
    assertThat(fake.calls()).containsExactly("-q -x", "topo -m");
  }

  @Test
  void noGpuElementsMeansNoDevices() {
    String empty =
        "<?xml version=\"1.0\" ?>\n<nvidia_smi_log><driver_version>580.1</driver_version>"
            + "<attached_gpus>0</attached_gpus></nvidia_smi_log>\n";

    assertThatThrownBy(() -> discover(FakeNvidiaSmi.in(tmp).answer("-q -x", empty)))
        .isInstanceOfSatisfying(
            NvidiaSmiException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NO_DEVICES))
        .hasMessage("no NVIDIA GPU found: nvidia-smi reports no devices");
  }

  @Test
  void aFailingQueryFailsDiscovery() {
    assertThatThrownBy(
            () -> discover(FakeNvidiaSmi.in(tmp).fail("-q -x", 6, "No devices were found\n", "")))
        .isInstanceOfSatisfying(
            NvidiaSmiException.class, e -> assertThat(e.reason()).isEqualTo(Reason.FAILED))
        .hasMessage("nvidia-smi -q -x exited with status 6: No devices were found");
  }
}
