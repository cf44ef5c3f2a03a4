package io.gantry.scheduler.kube.reserve;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuSharingRequest;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** KAI's node-scale-adjuster arithmetic: ceil of the waiting fractions, memory counting 0.1. */
class ScalingPodsTest {
  static Stream<Arguments> waiting() {
    return Stream.of(
        Arguments.of("nothing waits", List.of(), 0L),
        Arguments.of("one half", List.of(GpuSharingRequest.ofFraction(0.5, 1)), 1L),
        Arguments.of(
            "two halves fill one GPU",
            List.of(GpuSharingRequest.ofFraction(0.5, 1), GpuSharingRequest.ofFraction(0.5, 1)),
            1L),
        Arguments.of(
            "0.6 and 0.5 need two",
            List.of(GpuSharingRequest.ofFraction(0.6, 1), GpuSharingRequest.ofFraction(0.5, 1)),
            2L),
        Arguments.of("a half on three devices", List.of(GpuSharingRequest.ofFraction(0.5, 3)), 2L),
        Arguments.of(
            "eleven memory requests",
            java.util.Collections.nCopies(11, GpuSharingRequest.ofMemory(1000, 1)),
            2L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("waiting")
  void scalingPodsCoverTheWaitingFractions(
      String name, List<GpuSharingRequest> waiting, long devices) {
    assertThat(ScalingPods.devicesFor(waiting)).isEqualTo(devices);
  }
}
