package io.gantry.deviceagent.reserve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which GPU NVIDIA_VISIBLE_DEVICES names, as NVIDIA's device plugin and runtimes set it. */
class ReservedGpuTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "null",
      value = {
        "GPU-1a2b | GPU-1a2b",
        "k8s.device-plugin.nvidia.com/gpu=GPU-1a2b | GPU-1a2b",
        "all | null",
        "void | null",
        "0 | null",
        "GPU-1,GPU-2 | null",
        "null | null"
      })
  void theUuidComesFromTheEnvironmentOnlyWhenItNamesOneGpu(String visible, String uuid) {
    assertThat(ReservedGpu.fromVisibleDevices(visible)).isEqualTo(Optional.ofNullable(uuid));
  }
}
