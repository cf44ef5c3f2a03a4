package io.gantry.nodecommon.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvidiaSmiSettingsTest {
  @TempDir Path tmp;

  @Test
  void aTimeoutUnderOneSecondIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> new NvidiaSmiSettings("nvidia-smi", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--timeout must be at least 1 second, got 0");
  }

  @Test
  void locatingLooksTheCommandUpOnThePathItIsGiven() {
    NvidiaSmiSettings settings = new NvidiaSmiSettings("nvidia-smi", Duration.ofSeconds(30));

    assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThatThrownBy(() -> settings.locate(tmp.toString()))
        .isInstanceOf(NvidiaSmiException.class)
        .hasMessage("no NVIDIA GPU found: nvidia-smi is not on PATH");
  }
}
