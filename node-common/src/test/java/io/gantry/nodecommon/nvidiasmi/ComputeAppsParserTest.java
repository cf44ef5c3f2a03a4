package io.gantry.nodecommon.nvidiasmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.nodecommon.testing.Fixtures;
import org.junit.jupiter.api.Test;

class ComputeAppsParserTest {
  private static final String H100 = "GPU-00000000-0000-0000-0000-000000000000";

  @Test
  void theH100CaptureUnderLoadHasThreeProcesses() throws Exception {
    assertThat(ComputeAppsParser.parse(Fixtures.read(Fixtures.COMPUTE_APPS_H100)))
        .containsExactly(
            new GpuProcess(H100, 21180, 2296),
            new GpuProcess(H100, 21181, 1272),
            new GpuProcess(H100, 21198, 7484));
  }

  @Test
  void anIdleGpuHasOnlyTheHeader() throws Exception {
    assertThat(
            ComputeAppsParser.parse(
                Fixtures.captureSection("idle :: query-compute-apps (per-process)")))
        .isEmpty();
  }

  @Test
  void ourOwnQueryParsesAndUnknownMemoryIsZero() throws Exception {
    assertThat(
            ComputeAppsParser.parse(
                "gpu_uuid, pid, used_gpu_memory [MiB]\n"
                    + H100
                    + ", 7, 512 MiB\n"
                    + H100
                    + ", 8, [N/A]\n"))
        .containsExactly(new GpuProcess(H100, 7, 512), new GpuProcess(H100, 8, 0));
  }

  @Test
  void aMissingColumnIsNamed() {
    assertThatThrownBy(() -> ComputeAppsParser.parse("gpu_uuid, pid\n"))
        .isInstanceOf(NvidiaSmiException.class)
        .hasMessage(
            "nvidia-smi --query-compute-apps: header: no column 'used_gpu_memory [MiB]' in"
                + " gpu_uuid, pid");
  }

  @Test
  void memoryWithoutUnitIsNamedWithItsLine() {
    assertThatThrownBy(
            () ->
                ComputeAppsParser.parse(
                    "gpu_uuid, pid, used_gpu_memory [MiB]\n" + H100 + ", 7, 512 GB\n"))
        .hasMessage(
            "nvidia-smi --query-compute-apps: line 2 used_gpu_memory: expected '<number> MiB',"
                + " got '512 GB'");
  }
}
