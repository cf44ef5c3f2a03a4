package io.gantry.gpusharing.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GpuLinkTest {
  @Test
  void labelIsTheMatrixCell() {
    assertThat(new GpuLink(0, 1, LinkType.NVLINK, 18).label()).isEqualTo("NV18");
    assertThat(new GpuLink(2, 5, LinkType.PXB, 0).label()).isEqualTo("PXB");
  }

  @Test
  void pairsAreOrderedAndNvlinkCountsOnlyForNvlink() {
    assertThatThrownBy(() -> new GpuLink(1, 0, LinkType.SYS, 0))
        .hasMessage("a link joins two GPUs with 0 <= gpuIndexA < gpuIndexB, got 1 and 0");
    assertThatThrownBy(() -> new GpuLink(0, 1, LinkType.NVLINK, 0))
        .hasMessage("nvlinkCount is positive exactly for NVLINK, got NVLINK with 0");
    assertThatThrownBy(() -> new GpuLink(0, 1, LinkType.PIX, 2))
        .hasMessage("nvlinkCount is positive exactly for NVLINK, got PIX with 2");
  }
}
