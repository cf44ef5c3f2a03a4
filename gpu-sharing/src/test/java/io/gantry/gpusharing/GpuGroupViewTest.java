package io.gantry.gpusharing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Memory accounting of a shared GPU (KAI's used, allocated and releasing shared memory). */
class GpuGroupViewTest {
  @Test
  void memoryIsThePortionOfTheDevice() {
    GpuGroupView g =
        new GpuGroupView(
            "g",
            GpuAmount.ofHundredths(51),
            GpuAmount.ofHundredths(30),
            ComputeMode.TIME_SLICING,
            DeviceSource.IDLE);

    assertThat(g.allocatedMemoryMib(81_920)).isEqualTo(41_779);
    assertThat(g.releasingMemoryMib(81_920)).isEqualTo(24_576);
    assertThat(g.usedMemoryMib(81_920)).isEqualTo(66_355);
    assertThat(g.idlePortion()).isEqualTo(GpuAmount.ofHundredths(19));
    assertThat(g.idleOrReleasingPortion()).isEqualTo(GpuAmount.ofHundredths(49));
  }

  @Test
  void aWhollyReleasingGroupTakesNoNewTask() {
    GpuGroupView g =
        new GpuGroupView(
            "g",
            GpuAmount.ZERO,
            GpuAmount.ofHundredths(30),
            ComputeMode.TIME_SLICING,
            DeviceSource.IDLE);

    assertThat(g.allReleasing()).isTrue();
    assertThat(g.accepts(GpuAmount.ofHundredths(10), ComputeMode.TIME_SLICING)).isFalse();
  }

  @Test
  void aGroupHeldOnlyByPipelinedTasksHasNoRoomToBindInto() {
    // KAI: such a group has no allocated memory yet (its reservation pod is still pending), so a
    // task joining it is pipelined too; once a bound task holds it, its free portion is idle
    GpuGroupView pipelinedOnly =
        new GpuGroupView(
            "g",
            GpuAmount.ofHundredths(50),
            GpuAmount.ZERO,
            ComputeMode.TIME_SLICING,
            DeviceSource.IDLE,
            GpuAmount.ofHundredths(50));
    GpuGroupView alsoBound =
        new GpuGroupView(
            "g",
            GpuAmount.ofHundredths(75),
            GpuAmount.ZERO,
            ComputeMode.TIME_SLICING,
            DeviceSource.IDLE,
            GpuAmount.ofHundredths(50));

    assertThat(pipelinedOnly.idlePortion()).isEqualTo(GpuAmount.ZERO);
    assertThat(pipelinedOnly.accepts(GpuAmount.ofHundredths(50), ComputeMode.TIME_SLICING))
        .isTrue();
    assertThat(alsoBound.idlePortion()).isEqualTo(GpuAmount.ofHundredths(25));
  }
}
