package io.gantry.gpusharing;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * kai-reference §6: gpupack prefers the fullest shared GPU that fits, gpuspread a whole free GPU
 * then the emptiest shared one; equal scores prefer devices usable now.
 */
class DeviceChoiceTest {
  private static final GpuCandidate WHOLE_NOW =
      new GpuCandidate(Optional.empty(), GpuAmount.ZERO, true);
  private static final GpuCandidate WHOLE_LATER =
      new GpuCandidate(Optional.empty(), GpuAmount.ZERO, false);
  private static final GpuCandidate FULL =
      new GpuCandidate(Optional.of("full"), GpuAmount.ofHundredths(70), true);
  private static final GpuCandidate EMPTY =
      new GpuCandidate(Optional.of("empty"), GpuAmount.ofHundredths(20), true);

  @Test
  void scores() {
    assertThat(DeviceOrder.GPUPACK.score(FULL)).isEqualTo(0.7);
    assertThat(DeviceOrder.GPUPACK.score(WHOLE_NOW)).isEqualTo(0);
    assertThat(DeviceOrder.GPUSPREAD.score(EMPTY)).isEqualTo(0.8);
    assertThat(DeviceOrder.GPUSPREAD.score(WHOLE_NOW)).isEqualTo(1);
  }

  @Test
  void packTakesTheFullestSharedGpuFirst() {
    assertThat(
            DeviceChooser.choose(
                List.of(WHOLE_LATER, WHOLE_NOW, EMPTY, FULL), 2, DeviceOrder.GPUPACK::score))
        .contains(ImmutableList.of(FULL, EMPTY));
  }

  @Test
  void spreadTakesWholeGpusUsableNowFirst() {
    assertThat(
            DeviceChooser.choose(
                List.of(WHOLE_LATER, FULL, WHOLE_NOW, EMPTY), 3, DeviceOrder.GPUSPREAD::score))
        .contains(ImmutableList.of(WHOLE_NOW, WHOLE_LATER, EMPTY));
  }

  @Test
  void tooFewCandidatesIsNoChoice() {
    assertThat(DeviceChooser.choose(List.of(FULL), 2, DeviceOrder.GPUPACK::score)).isEmpty();
  }

  @Test
  void candidatesAreAcceptingGroupsThenIdleThenReleasingDevices() {
    List<GpuGroupView> groups =
        List.of(
            new GpuGroupView(
                "mps",
                GpuAmount.ofHundredths(20),
                GpuAmount.ZERO,
                ComputeMode.MPS,
                DeviceSource.IDLE),
            new GpuGroupView(
                "ts",
                GpuAmount.ofHundredths(20),
                GpuAmount.ofHundredths(50),
                ComputeMode.TIME_SLICING,
                DeviceSource.IDLE));

    assertThat(GpuCandidates.of(groups, 1, 1, GpuAmount.ofHundredths(40), ComputeMode.TIME_SLICING))
        .containsExactly(
            new GpuCandidate(Optional.of("ts"), GpuAmount.ofHundredths(70), false),
            WHOLE_NOW,
            WHOLE_LATER);
    assertThat(GpuCandidates.usableNow(groups, 1, GpuAmount.ofHundredths(40), ComputeMode.MPS))
        .isEqualTo(2);
  }
}
