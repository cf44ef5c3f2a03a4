package io.gantry.dradriver.devices;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.dradriver.testing.HgxH100;
import io.gantry.gpusharing.inventory.DomainSource;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import io.gantry.nodecommon.testing.Gpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SliceDevicesTest {
  @TempDir Path dir;

  @Test
  void theHgxH100NodeOffersEightHopperGpusInOneNvlinkDomain() throws Exception {
    List<SliceDevice> devices = SliceDevices.of(HgxH100.inventory(dir));

    assertThat(devices).hasSize(8);
    assertThat(devices.get(0))
        .isEqualTo(
            new SliceDevice(
                "gpu-0",
                0,
                HgxH100.uuid(0),
                "NVIDIA H100 80GB HBM3",
                Optional.of("Hopper"),
                Optional.of("local-0"),
                "0000:53:00.0",
                81559));
    assertThat(devices)
        .extracting(SliceDevice::name)
        .containsExactly("gpu-0", "gpu-1", "gpu-2", "gpu-3", "gpu-4", "gpu-5", "gpu-6", "gpu-7");
    assertThat(devices.get(7).uuid()).isEqualTo(HgxH100.uuid(7));
    assertThat(devices.get(0).memoryBytes()).isEqualTo(81559L * 1024 * 1024);
  }

  @Test
  void unhealthyAndMigEnabledGpusAreNotOfferedAndAGpuWithoutPeersHasNoDomain() {
    List<GpuDevice> gpus = new ArrayList<>(Gpus.plain(4));
    GpuDevice one = gpus.get(1);
    gpus.set(
        1,
        new GpuDevice(
            1,
            one.uuid(),
            one.pciBusId(),
            one.productName(),
            one.memoryMib(),
            one.migMode(),
            one.migInstances(),
            one.numaNode(),
            GpuHealth.fromReasons(List.of("XID 79: fell off the bus")),
            one.fabric()));
    GpuDevice two = gpus.get(2);
    gpus.set(
        2,
        new GpuDevice(
            2,
            two.uuid(),
            two.pciBusId(),
            two.productName(),
            two.memoryMib(),
            MigMode.ENABLED,
            List.of(),
            two.numaNode(),
            two.health(),
            two.fabric()));
    GpuInventory inventory =
        new GpuInventory(
            "580.105.08",
            Optional.empty(),
            gpus,
            false,
            List.of(),
            List.of(
                new NvlinkDomain(
                    "local-0",
                    List.of(0, 3),
                    true,
                    Optional.empty(),
                    List.of(DomainSource.LINK_MATRIX))));

    List<SliceDevice> devices = SliceDevices.of(inventory);

    assertThat(devices).extracting(SliceDevice::name).containsExactly("gpu-0", "gpu-3");
    assertThat(devices).extracting(SliceDevice::nvlinkDomain).containsOnly(Optional.of("local-0"));
    assertThat(SliceDevices.of(withoutDomains(inventory)))
        .extracting(SliceDevice::nvlinkDomain)
        .containsOnly(Optional.empty());
    assertThat(devices.get(0).architecture()).isEmpty();
  }

  @Test
  void thePciBusIdBecomesTheExtendedBdfKubernetesUses() {
    assertThat(SliceDevices.extendedBdf("00000000:53:00.0")).isEqualTo("0000:53:00.0");
    assertThat(SliceDevices.extendedBdf("00000001:AB:00.0")).isEqualTo("0001:ab:00.0");
    assertThat(SliceDevices.extendedBdf("10000000:ab:00.0")).isEqualTo("10000000:ab:00.0");
    assertThat(SliceDevices.extendedBdf("0000:18:00.0")).isEqualTo("0000:18:00.0");
  }

  private static GpuInventory withoutDomains(GpuInventory inventory) {
    return new GpuInventory(
        inventory.driverVersion(),
        inventory.cudaVersion(),
        inventory.devices(),
        false,
        List.of(),
        List.of());
  }
}
