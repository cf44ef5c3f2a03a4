package io.gantry.gpusharing.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code gantry.io/gpu-allocation} annotation: exact text, round trip, strict reading. */
class GpuAllocationJsonTest {
  private static final GpuAllocation SHARED =
      GpuAllocation.shared(
          "gpu-0",
          GpuAmount.ofHundredths(50),
          ComputeMode.MPS,
          List.of("gpu-0-gpu0", "gpu-0-gpu1"));

  @Test
  void writesTheVersionedForm() {
    assertThat(GpuAllocationJson.write(SHARED))
        .isEqualTo(
            "{\"version\":1,\"node\":\"gpu-0\",\"deviceCount\":2,\"portion\":\"0.50\","
                + "\"computeMode\":\"mps\",\"gpuGroups\":[\"gpu-0-gpu0\",\"gpu-0-gpu1\"],"
                + "\"devices\":[]}");
    assertThat(GpuAllocationJson.write(GpuAllocation.whole("n1", 1)))
        .isEqualTo(
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":\"1.00\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],\"devices\":[]}");
  }

  @Test
  void chosenDevicesAreWrittenOnlyWhenTheSchedulerChoseThem() {
    assertThat(GpuAllocationJson.write(GpuAllocation.wholeChosen("n1", List.of(6, 4, 5, 7))))
        .isEqualTo(
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":4,\"portion\":\"1.00\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],"
                + "\"chosenDevices\":[4,5,6,7],\"devices\":[]}");
  }

  @Test
  void anAllocationWithoutChosenDevicesReadsAsNoChoice() {
    // what a scheduler before chosen devices wrote, and still writes without a choice
    assertThat(
            GpuAllocationJson.read(
                "{\"version\":1,\"node\":\"n1\",\"deviceCount\":2,\"portion\":\"1.00\","
                    + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],\"devices\":[]}"))
        .isEqualTo(GpuAllocation.whole("n1", 2));
  }

  static Stream<GpuAllocation> allocations() {
    return Stream.of(
        SHARED,
        SHARED.withDevices(
            List.of(new AssignedGpu(3, "GPU-a", 81_920), new AssignedGpu(4, "GPU-b", 81_920))),
        GpuAllocation.whole("n1", 8),
        GpuAllocation.wholeChosen("n1", List.of(0, 2, 4, 6)),
        GpuAllocation.wholeChosen("n1", List.of(0, 2))
            .withDevices(
                List.of(new AssignedGpu(0, "GPU-a", 81_920), new AssignedGpu(2, "GPU-c", 81_920))),
        GpuAllocation.shared(
            "n1", GpuAmount.ofHundredths(1), ComputeMode.TIME_SLICING, List.of("n1-gpu7")));
  }

  @ParameterizedTest
  @MethodSource("allocations")
  void roundTrips(GpuAllocation a) {
    assertThat(GpuAllocationJson.read(GpuAllocationJson.write(a))).isEqualTo(a);
  }

  record Bad(String name, String json, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> bad() {
    String prefix = "annotation gantry.io/gpu-allocation: ";
    return Stream.of(
        new Bad("not JSON", "{node:", prefix + "not JSON: "),
        new Bad("an array", "[1]", prefix + "expected a JSON object"),
        new Bad(
            "a foreign object",
            "{\"gpus\":[0,1]}",
            prefix + "field version is missing: not a Gantry GPU allocation"),
        new Bad(
            "a later version",
            "{\"version\":2,\"node\":\"n1\"}",
            prefix + "version 2 is not supported; this build reads version 1"),
        new Bad(
            "the provisional form",
            "{\"version\":1,\"node\":\"n1\",\"devices\":2,\"portion\":\"1.00\",\"gpuGroups\":[]}",
            prefix + "field deviceCount is missing"),
        new Bad(
            "an unknown field",
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":\"1.00\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],\"devices\":[],\"x\":1}",
            prefix
                + "unknown field x; expected version, node, deviceCount, portion, computeMode,"
                + " gpuGroups, chosenDevices, devices"),
        new Bad(
            "a chosen device that is not an index",
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":\"1.00\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],\"chosenDevices\":[\"4\"],"
                + "\"devices\":[]}",
            prefix + "field chosenDevices: expected device indices, got \"4\""),
        new Bad(
            "more chosen devices than the count",
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":\"1.00\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],\"chosenDevices\":[4,5],"
                + "\"devices\":[]}",
            prefix + "chosenDevices must be empty or one per device (1), got 2"),
        new Bad(
            "a portion as a number",
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":0.5,"
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[\"g\"],\"devices\":[]}",
            prefix + "field portion: expected a string, got 0.5"),
        new Bad(
            "a portion with one decimal",
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":\"0.5\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[\"g\"],\"devices\":[]}",
            prefix
                + "field portion: expected a decimal with two places such as \"0.50\", got \"0.5\""),
        new Bad(
            "an unknown compute mode",
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":\"0.50\","
                + "\"computeMode\":\"mig\",\"gpuGroups\":[\"g\"],\"devices\":[]}",
            prefix + "field computeMode: unknown compute mode 'mig', expected time-slicing or mps"),
        new Bad(
            "a device without a uuid",
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":1,\"portion\":\"1.00\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[],"
                + "\"devices\":[{\"index\":0,\"memoryMib\":1}]}",
            prefix + "field devices[0].uuid is missing"),
        new Bad(
            "groups that do not match the device count",
            "{\"version\":1,\"node\":\"n1\",\"deviceCount\":2,\"portion\":\"0.50\","
                + "\"computeMode\":\"time-slicing\",\"gpuGroups\":[\"g\"],\"devices\":[]}",
            prefix + "a shared allocation needs one GPU group per device (2), got 1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void rejectsWhatItCannotReadWholly(Bad c) {
    assertThatThrownBy(() -> GpuAllocationJson.read(c.json()))
        .isInstanceOf(GpuAllocationFormatException.class)
        .hasMessageStartingWith(c.message());
  }
}
