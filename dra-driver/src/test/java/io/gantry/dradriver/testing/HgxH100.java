package io.gantry.dradriver.testing;

import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The HGX H100 node of the device agent's fixture ({@code nvidia-smi -q -x} of 8 H100 80GB HBM3,
 * driver 580), replayed by a fake {@code nvidia-smi} script through the real discovery.
 */
public final class HgxH100 {
  /** The fixture's GPU UUIDs are GPU-0000000N-0000-0000-0000-00000000000N. */
  public static String uuid(int index) {
    return String.format("GPU-%08d-0000-0000-0000-%012d", index, index);
  }

  private HgxH100() {}

  /** Installs the fake nvidia-smi in {@code dir}; returns the discovery that runs it. */
  public static GpuDiscovery discovery(Path dir) throws NvidiaSmiException {
    FakeNvidiaSmi.replaying(dir, Fixtures.HGX_H100).install();
    return new GpuDiscovery(NvidiaSmi.locate("nvidia-smi", dir.toString(), Duration.ofSeconds(10)));
  }

  /** The node's inventory, discovered through a fake nvidia-smi in {@code dir}. */
  public static GpuInventory inventory(Path dir) throws NvidiaSmiException {
    return discovery(dir).discover();
  }
}
