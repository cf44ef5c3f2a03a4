package io.gantry.gpusharing;

import static io.gantry.gpusharing.GpuAmount.ofHundredths;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §7: a memory request's per-device portion is {@code ceil(mem / nodeGpuMemory · 100)
 * / 100} with the node memory floored to a multiple of 100 MiB (100 when unknown), not capped, and
 * a portion over 1 fits no device of that node; quota GPUs are portion (at most 1) × devices.
 */
class GpuSharingRequestTest {
  record Case(
      String name,
      GpuSharingRequest request,
      long nodeGpuMemoryMib,
      GpuAmount portion,
      GpuAmount quotaGpus) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "half of an 80 GiB GPU is 0.51 once the node memory is floored to 81900 MiB",
            GpuSharingRequest.ofMemory(40_960, 1),
            81_920,
            ofHundredths(51),
            ofHundredths(51)),
        new Case(
            "memory that divides the floored node memory exactly",
            GpuSharingRequest.ofMemory(20_000, 1),
            40_000,
            ofHundredths(50),
            ofHundredths(50)),
        new Case(
            "the floored memory of an 80 GiB GPU is a whole device",
            GpuSharingRequest.ofMemory(81_900, 1),
            81_920,
            ofHundredths(100),
            ofHundredths(100)),
        new Case(
            "the label's 80 GiB is over the floored device: a portion over 1, quota capped at 1",
            GpuSharingRequest.ofMemory(81_920, 1),
            81_920,
            ofHundredths(101),
            ofHundredths(100)),
        new Case(
            "memory just past a hundredth of the device rounds up to the next hundredth",
            GpuSharingRequest.ofMemory(820, 1),
            81_920,
            ofHundredths(2),
            ofHundredths(2)),
        new Case(
            "memory beyond the device is not capped; its quota is capped at 1 per device",
            GpuSharingRequest.ofMemory(100_000, 2),
            81_920,
            ofHundredths(123),
            ofHundredths(200)),
        new Case(
            "unknown node memory counts as 100 MiB",
            GpuSharingRequest.ofMemory(50, 1),
            0,
            ofHundredths(50),
            ofHundredths(50)),
        new Case(
            "memory request on two devices",
            GpuSharingRequest.ofMemory(40_960, 2),
            81_920,
            ofHundredths(51),
            ofHundredths(102)),
        new Case(
            "a fraction keeps two decimals",
            GpuSharingRequest.ofFraction(0.333, 1),
            81_920,
            ofHundredths(33),
            ofHundredths(33)),
        new Case(
            "a fraction on two devices",
            GpuSharingRequest.ofFraction(0.5, 2),
            81_920,
            ofHundredths(50),
            ofHundredths(100)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void convertsToPortionAndQuota(Case c) {
    assertThat(c.request().portionOn(c.nodeGpuMemoryMib())).isEqualTo(c.portion());
    assertThat(c.request().quotaGpusOn(c.nodeGpuMemoryMib())).isEqualTo(c.quotaGpus());
  }

  record DeviceCase(String name, GpuSharingRequest request, long nodeGpuMemoryMib, boolean fits) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<DeviceCase> deviceCases() {
    return Stream.of(
        new DeviceCase(
            "a request below the device", GpuSharingRequest.ofMemory(60_000, 1), 81_920, true),
        new DeviceCase(
            "a request of the floored device", GpuSharingRequest.ofMemory(40_900, 1), 40_960, true),
        new DeviceCase(
            "a request over the floored device",
            GpuSharingRequest.ofMemory(40_960, 1),
            40_960,
            false),
        new DeviceCase(
            "a request over the device", GpuSharingRequest.ofMemory(60_000, 1), 40_960, false),
        new DeviceCase("a fraction always fits", GpuSharingRequest.ofFraction(1, 1), 40_960, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deviceCases")
  void fitsADeviceWhenThePortionIsAtMostOne(DeviceCase c) {
    assertThat(c.request().fitsDeviceOn(c.nodeGpuMemoryMib())).isEqualTo(c.fits());
  }

  record Invalid(String name, Runnable construct, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Invalid> invalid() {
    return Stream.of(
        new Invalid(
            "neither fraction nor memory",
            () ->
                new GpuSharingRequest(
                    OptionalDouble.empty(), OptionalLong.empty(), 1, ComputeMode.MPS),
            "exactly one of fraction and memoryMib must be set"),
        new Invalid(
            "both fraction and memory",
            () ->
                new GpuSharingRequest(
                    OptionalDouble.of(0.5), OptionalLong.of(100), 1, ComputeMode.TIME_SLICING),
            "exactly one of fraction and memoryMib must be set"),
        new Invalid(
            "fraction 0",
            () -> GpuSharingRequest.ofFraction(0, 1),
            "fraction must be in (0, 1], got 0.0"),
        new Invalid(
            "fraction above 1",
            () -> GpuSharingRequest.ofFraction(1.5, 1),
            "fraction must be in (0, 1], got 1.5"),
        new Invalid(
            "no memory",
            () -> GpuSharingRequest.ofMemory(0, 1),
            "memoryMib must be positive, got 0"),
        new Invalid(
            "no devices",
            () -> GpuSharingRequest.ofFraction(0.5, 0),
            "numDevices must be >= 1, got 0"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsInvalidRequests(Invalid c) {
    assertThatThrownBy(c.construct()::run)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(c.message());
  }
}
