package io.gantry.deviceagent.mps;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.deviceagent.kube.PodAllocation;
import io.gantry.deviceagent.kube.PodRef;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MpsPodsTest {
  private static final AssignedGpu GPU0 =
      new AssignedGpu(0, "GPU-00000000-0000-0000-0000-000000000000", 81559);
  private static final AssignedGpu GPU1 =
      new AssignedGpu(1, "GPU-00000001-0000-0000-0000-000000000001", 81559);

  private static PodAllocation pod(String name, GpuAllocation allocation) {
    return new PodAllocation(
        new PodRef("default", name, "uid-" + name),
        "Running",
        OffsetDateTime.parse("2026-01-01T00:00:00Z"),
        allocation,
        new V1Pod());
  }

  private static GpuAllocation shared(int hundredths, ComputeMode mode, AssignedGpu gpu) {
    return GpuAllocation.shared("gpu-0", GpuAmount.ofHundredths(hundredths), mode, List.of("g"))
        .withDevices(ImmutableList.of(gpu));
  }

  @Test
  void eachGpuGetsTheLargestLimitsOfItsMpsPods() {
    assertThat(
            MpsPods.wanted(
                List.of(
                    pod("a", shared(25, ComputeMode.MPS, GPU0)),
                    pod("b", shared(50, ComputeMode.MPS, GPU0)),
                    pod("c", shared(30, ComputeMode.MPS, GPU1)),
                    pod("d", shared(70, ComputeMode.TIME_SLICING, GPU1)),
                    pod(
                        "e",
                        GpuAllocation.shared(
                            "gpu-0", GpuAmount.ofHundredths(90), ComputeMode.MPS, List.of("g")))),
                "gpu-0"))
        .isEqualTo(
            Map.of(
                GPU0.uuid(), new MpsLimits(50, 40779),
                GPU1.uuid(), new MpsLimits(30, 24467)));
  }

  @Test
  void podsOfAnotherNodeDoNotCount() {
    assertThat(MpsPods.wanted(List.of(pod("a", shared(25, ComputeMode.MPS, GPU0))), "gpu-1"))
        .isEmpty();
  }
}
