package io.gantry.deviceagent.inventory;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.deviceagent.testing.Gpus;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GpuInventoryTest {
  @Test
  void devicesAreInIndexOrder() {
    List<GpuDevice> gpus = Gpus.plain(2);

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
                    Gpus.plain(2),
                    false,
                    List.of(new GpuLink(0, 1, LinkType.SYS, 0)),
                    List.of()))
        .hasMessage("gpuLinks without a link matrix");
  }
}
