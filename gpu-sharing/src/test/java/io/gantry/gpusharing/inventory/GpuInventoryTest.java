package io.gantry.gpusharing.inventory;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class GpuInventoryTest {
  private static List<GpuDevice> twoGpus() {
    return List.of(gpu(0), gpu(1));
  }

  private static GpuDevice gpu(int index) {
    return new GpuDevice(
        index,
        "GPU-" + index,
        "00000000:0" + index + ":00.0",
        "Test GPU",
        1024,
        MigMode.DISABLED,
        List.of(),
        OptionalInt.empty(),
        GpuHealth.HEALTHY,
        Optional.empty());
  }

  @Test
  void devicesAreInIndexOrder() {
    List<GpuDevice> gpus = twoGpus();

    assertThatThrownBy(
            () ->
                new GpuInventory(
                    "1",
                    Optional.empty(),
                    List.of(gpus.get(1), gpus.get(0)),
                    false,
                    List.of(),
                    List.of()))
        .hasMessage("devices must be in index order 0..n-1, found index 1 at position 0");
  }

  @Test
  void linksNeedAMatrix() {
    assertThatThrownBy(
            () ->
                new GpuInventory(
                    "1",
                    Optional.empty(),
                    twoGpus(),
                    false,
                    List.of(new GpuLink(0, 1, LinkType.SYS, 0)),
                    List.of()))
        .hasMessage("gpuLinks without a link matrix");
  }
}
