package io.gantry.nodecommon.testing;

import io.gantry.gpusharing.inventory.FabricMembership;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.MigMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Made-up GPUs for tests that need devices without a -q -x fixture. */
public final class Gpus {
  private Gpus() {}

  /** {@code n} healthy GPUs with indices 0..n-1 and no fabric. */
  public static List<GpuDevice> plain(int n) {
    List<GpuDevice> gpus = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      gpus.add(gpu(i, Optional.empty()));
    }
    return gpus;
  }

  /** A healthy GPU with {@code index} and {@code fabric}. */
  public static GpuDevice gpu(int index, Optional<FabricMembership> fabric) {
    return new GpuDevice(
        index,
        String.format("GPU-%08d-0000-0000-0000-000000000000", index),
        String.format("00000000:%02X:00.0", index + 1),
        "Test GPU",
        1024,
        MigMode.DISABLED,
        List.of(),
        OptionalInt.empty(),
        GpuHealth.HEALTHY,
        fabric);
  }
}
