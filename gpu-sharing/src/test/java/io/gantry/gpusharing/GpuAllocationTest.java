package io.gantry.gpusharing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The enforcement contract's exact environment and mounts for each kind of allocation. */
class GpuAllocationTest {
  private static final AssignedGpu GPU0 =
      new AssignedGpu(0, "GPU-1a2b3c4d-0000-1111-2222-333344445555", 81_920);
  private static final AssignedGpu GPU5 =
      new AssignedGpu(5, "GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff", 81_920);

  record Case(
      String name,
      GpuAllocation allocation,
      DeviceNaming naming,
      ImmutableSortedMap<String, String> env,
      List<HostMount> mounts) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "one whole GPU",
            GpuAllocation.whole("n1", 1).withDevices(List.of(GPU5)),
            DeviceNaming.UUID,
            ImmutableSortedMap.of(
                "GPU_PORTION", "1.00",
                "NVIDIA_VISIBLE_DEVICES", "GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff",
                "RUNAI_NUM_OF_GPUS", "1"),
            List.of()),
        new Case(
            "two whole GPUs by CDI name",
            GpuAllocation.whole("n1", 2).withDevices(List.of(GPU0, GPU5)),
            DeviceNaming.CDI,
            ImmutableSortedMap.of(
                "GPU_PORTION", "1.00",
                "NVIDIA_VISIBLE_DEVICES",
                    "k8s.device-plugin.nvidia.com/gpu=GPU-1a2b3c4d-0000-1111-2222-333344445555,"
                        + "k8s.device-plugin.nvidia.com/gpu=GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff",
                "RUNAI_NUM_OF_GPUS", "2"),
            List.of()),
        new Case(
            "a fraction of one GPU",
            GpuAllocation.shared(
                    "n1", GpuAmount.ofHundredths(50), ComputeMode.TIME_SLICING, List.of("n1-gpu0"))
                .withDevices(List.of(GPU5)),
            DeviceNaming.UUID,
            ImmutableSortedMap.of(
                "CUDA_DEVICE_MEMORY_LIMIT", "40960m",
                "GPU_PORTION", "0.50",
                "NVIDIA_VISIBLE_DEVICES", "GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff",
                "RUNAI_NUM_OF_GPUS", "0.50"),
            List.of()),
        new Case(
            "a 40960 MiB request on an 80 GiB GPU is portion 0.51: KAI's floor(memory × portion)",
            GpuAllocation.shared(
                    "n1", GpuAmount.ofHundredths(51), ComputeMode.TIME_SLICING, List.of("n1-gpu0"))
                .withDevices(List.of(GPU0)),
            DeviceNaming.UUID,
            ImmutableSortedMap.of(
                "CUDA_DEVICE_MEMORY_LIMIT", "41779m",
                "GPU_PORTION", "0.51",
                "NVIDIA_VISIBLE_DEVICES", "GPU-1a2b3c4d-0000-1111-2222-333344445555",
                "RUNAI_NUM_OF_GPUS", "0.51"),
            List.of()),
        new Case(
            "an MPS quarter",
            GpuAllocation.shared(
                    "n1", GpuAmount.ofHundredths(25), ComputeMode.MPS, List.of("n1-gpu1"))
                .withDevices(List.of(GPU5)),
            DeviceNaming.UUID,
            ImmutableSortedMap.<String, String>naturalOrder()
                .put("CUDA_DEVICE_MEMORY_LIMIT", "20480m")
                .put("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "25")
                .put("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", "0=20480M")
                .put("CUDA_MPS_PIPE_DIRECTORY", "/tmp/nvidia-mps")
                .put("GPU_PORTION", "0.25")
                .put("NVIDIA_VISIBLE_DEVICES", "GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff")
                .put("RUNAI_NUM_OF_GPUS", "0.25")
                .build(),
            List.of(new HostMount("/tmp/nvidia-mps", "/tmp/nvidia-mps"))),
        new Case(
            "a fraction on each of two GPUs, MPS ordinals as the container numbers them",
            GpuAllocation.shared(
                    "n1", GpuAmount.ofHundredths(30), ComputeMode.MPS, List.of("g-a", "g-b"))
                .withDevices(List.of(GPU5, new AssignedGpu(2, "GPU-small", 40_960))),
            DeviceNaming.UUID,
            ImmutableSortedMap.<String, String>naturalOrder()
                .put("CUDA_DEVICE_MEMORY_LIMIT", "12288m")
                .put("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "30")
                .put("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", "0=24576M,1=12288M")
                .put("CUDA_MPS_PIPE_DIRECTORY", "/tmp/nvidia-mps")
                .put("GPU_PORTION", "0.30")
                .put("NVIDIA_VISIBLE_DEVICES", "GPU-9f8e7d6c-aaaa-bbbb-cccc-ddddeeeeffff,GPU-small")
                .put("RUNAI_NUM_OF_GPUS", "0.30")
                .build(),
            List.of(new HostMount("/tmp/nvidia-mps", "/tmp/nvidia-mps"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void enforcementIsExact(Case c) {
    GpuEnforcement e = c.allocation().enforcement(c.naming());

    assertThat(e.env()).containsExactlyEntriesOf(c.env());
    assertThat(e.mounts()).containsExactlyElementsOf(c.mounts());
  }

  @Test
  void anUnresolvedAllocationHasNoEnforcementYet() {
    assertThatThrownBy(() -> GpuAllocation.whole("n1", 1).enforcement(DeviceNaming.UUID))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("GPU allocation on node n1 is not resolved to devices yet");
  }

  record Invalid(String name, Runnable construct, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Invalid> invalid() {
    GpuAmount half = GpuAmount.ofHundredths(50);
    return Stream.of(
        new Invalid(
            "groups and devices disagree",
            () ->
                new GpuAllocation(
                    "n1",
                    2,
                    half,
                    ComputeMode.TIME_SLICING,
                    ImmutableList.of("g"),
                    ImmutableList.of(),
                    ImmutableList.of()),
            "a shared allocation needs one GPU group per device (2), got 1"),
        new Invalid(
            "a portion without groups",
            () ->
                new GpuAllocation(
                    "n1",
                    1,
                    half,
                    ComputeMode.TIME_SLICING,
                    ImmutableList.of(),
                    ImmutableList.of(),
                    ImmutableList.of()),
            "whole devices have portion 1 and compute mode time-slicing; a portion or MPS needs GPU"
                + " groups"),
        new Invalid(
            "a portion over one device",
            () ->
                GpuAllocation.shared(
                    "n1", GpuAmount.ofHundredths(101), ComputeMode.MPS, List.of("g")),
            "portion must be in (0, 1], got 1.01"),
        new Invalid(
            "resolved to the wrong number of devices",
            () -> GpuAllocation.whole("n1", 2).withDevices(List.of(GPU0)),
            "devices must be empty (unresolved) or one per device (2), got 1"),
        new Invalid(
            "no devices", () -> GpuAllocation.whole("n1", 0), "deviceCount must be >= 1, got 0"),
        new Invalid(
            "a device chosen twice",
            () -> GpuAllocation.wholeChosen("n1", List.of(4, 4)),
            "chosenDevices must be distinct device indices >= 0 in ascending order, got [4, 4]"),
        new Invalid(
            "a negative device chosen",
            () -> GpuAllocation.wholeChosen("n1", List.of(-1)),
            "chosenDevices must be distinct device indices >= 0 in ascending order, got [-1]"),
        new Invalid(
            "chosen devices of a shared allocation",
            () ->
                new GpuAllocation(
                    "n1",
                    1,
                    half,
                    ComputeMode.TIME_SLICING,
                    ImmutableList.of("g"),
                    ImmutableList.of(0),
                    ImmutableList.of()),
            "chosenDevices are for whole devices; a shared allocation names GPU groups"),
        new Invalid(
            "fewer chosen devices than the count",
            () ->
                new GpuAllocation(
                    "n1",
                    2,
                    GpuAmount.ofDevices(1),
                    ComputeMode.TIME_SLICING,
                    ImmutableList.of(),
                    ImmutableList.of(3),
                    ImmutableList.of()),
            "chosenDevices must be empty or one per device (2), got 1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsInconsistentAllocations(Invalid c) {
    assertThatThrownBy(c.construct()::run)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(c.message());
  }
}
