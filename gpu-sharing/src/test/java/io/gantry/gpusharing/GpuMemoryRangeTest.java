package io.gantry.gpusharing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kai-reference §5.2, §7: requests convert with the smallest device, capacity checks the largest.
 */
class GpuMemoryRangeTest {
  @Test
  void convertsWithTheSmallestAndTheLargestDevice() {
    GpuMemoryRange range = GpuMemoryRange.over(List.of(81_920L, 40_960L));
    GpuSharingRequest request = GpuSharingRequest.ofMemory(20_480, 1);

    assertThat(range).isEqualTo(new GpuMemoryRange(40_960, 81_920));
    assertThat(range.requestGpus(request)).isEqualTo(GpuAmount.ofHundredths(51));
    assertThat(range.capacityCheckGpus(request)).isEqualTo(GpuAmount.ofHundredths(26));
  }

  @Test
  void noGpuNodesIsZero() {
    assertThat(GpuMemoryRange.over(List.of())).isEqualTo(new GpuMemoryRange(0, 0));
  }

  @Test
  void rejectsAnInvertedRange() {
    assertThatThrownBy(() -> new GpuMemoryRange(2, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("need 0 <= minMib <= maxMib, got 2 and 1");
  }

  @Test
  void portionMemoryRoundsDown() {
    assertThat(PortionMemory.memoryMib(GpuAmount.ofHundredths(33), 40_960)).isEqualTo(13_516);
  }
}
