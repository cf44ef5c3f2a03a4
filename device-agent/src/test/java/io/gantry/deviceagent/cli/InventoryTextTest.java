package io.gantry.deviceagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.nodecommon.discovery.NvlinkDomains;
import io.gantry.nodecommon.nvidiasmi.QueryXmlParser;
import io.gantry.nodecommon.nvidiasmi.TopologyMatrixParser;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Gpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InventoryTextTest {

  @Test
  void hgxH100() throws Exception {
    List<GpuDevice> gpus = QueryXmlParser.parse(Fixtures.read(Fixtures.HGX_H100)).devices();
    GpuInventory inventory =
        new GpuInventory(
            "580.105.08",
            Optional.of("13.0"),
            gpus,
            false,
            List.of(),
            NvlinkDomains.derive(gpus, List.of()));

    assertThat(InventoryText.toText(inventory))
        .isEqualTo(
            """
            NVIDIA driver 580.105.08, CUDA 13.0: 8 GPUs

            GPU  UUID                                      PCI BUS ID        PRODUCT                MEMORY     MIG       NUMA  HEALTH
            0    GPU-00000000-0000-0000-0000-000000000000  00000000:53:00.0  NVIDIA H100 80GB HBM3  81559 MiB  disabled  -     healthy
            1    GPU-00000001-0000-0000-0000-000000000001  00000000:64:00.0  NVIDIA H100 80GB HBM3  81559 MiB  disabled  -     healthy
            2    GPU-00000002-0000-0000-0000-000000000002  00000000:75:00.0  NVIDIA H100 80GB HBM3  81559 MiB  disabled  -     healthy
            3    GPU-00000003-0000-0000-0000-000000000003  00000000:86:00.0  NVIDIA H100 80GB HBM3  81559 MiB  disabled  -     healthy
            4    GPU-00000004-0000-0000-0000-000000000004  00000000:97:00.0  NVIDIA H100 80GB HBM3  81559 MiB  disabled  -     healthy
            5    GPU-00000005-0000-0000-0000-000000000005  00000000:A8:00.0  NVIDIA H100 80GB HBM3  81559 MiB  disabled  -     healthy
            6    GPU-00000006-0000-0000-0000-000000000006  00000000:B9:00.0  NVIDIA H100 80GB HBM3  81559 MiB  disabled  -     healthy
            7    GPU-00000007-0000-0000-0000-000000000007  00000000:CA:00.0  NVIDIA H100 80GB HBM3  81559 MiB  disabled  -     healthy

            NVLink domains:
            DOMAIN   GPUS             ALL-TO-ALL  FROM
            local-0  0,1,2,3,4,5,6,7  yes         fabric

            GPU links (nvidia-smi topo -m): not available
            """);
  }

  @Test
  void dgx1MatrixMigDevicesAndUnhealthyGpus() throws Exception {
    List<GpuLink> links = TopologyMatrixParser.parse(Fixtures.read(Fixtures.TOPO_DGX1)).links();
    List<GpuDevice> gpus = new ArrayList<>(Gpus.plain(8));
    GpuDevice mig = QueryXmlParser.parse(Fixtures.read(Fixtures.A100_80GB_MIG)).devices().get(0);
    gpus.set(
        3,
        new GpuDevice(
            3,
            gpus.get(3).uuid(),
            gpus.get(3).pciBusId(),
            "Test GPU",
            1024,
            mig.migMode(),
            mig.migInstances().subList(0, 1),
            gpus.get(3).numaNode(),
            new GpuHealth(HealthStatus.UNHEALTHY, List.of("gpu_recovery_action is GPU Reset")),
            Optional.empty()));
    GpuInventory inventory =
        new GpuInventory(
            "418.1", Optional.empty(), gpus, true, links, NvlinkDomains.derive(gpus, links));

    String text = InventoryText.toText(inventory);

    assertThat(text).startsWith("NVIDIA driver 418.1: 8 GPUs\n");
    assertThat(text)
        .contains(
            """
            MIG devices:
            GPU  MIG  GI  CI  PROFILE  MEMORY     SMS  UUID
            3    0    3   0   -        19968 MiB  14   -

            GPU 3 is unhealthy: gpu_recovery_action is GPU Reset
            """)
        .contains(
            """
            DOMAIN   GPUS             ALL-TO-ALL  FROM
            local-0  0,1,2,3,4,5,6,7  no          link_matrix
            """)
        .endsWith(
            """
            GPU links (nvidia-smi topo -m):
                  GPU0  GPU1  GPU2  GPU3  GPU4  GPU5  GPU6  GPU7
            GPU0  X     NV1   NV1   NV2   NV2   SYS   SYS   SYS
            GPU1  NV1   X     NV2   NV1   SYS   NV2   SYS   SYS
            GPU2  NV1   NV2   X     NV2   SYS   SYS   NV1   SYS
            GPU3  NV2   NV1   NV2   X     SYS   SYS   SYS   NV1
            GPU4  NV2   SYS   SYS   SYS   X     NV1   NV1   NV2
            GPU5  SYS   NV2   SYS   SYS   NV1   X     NV2   NV1
            GPU6  SYS   SYS   NV1   SYS   NV1   NV2   X     NV2
            GPU7  SYS   SYS   SYS   NV1   NV2   NV1   NV2   X
            """);
  }
}
