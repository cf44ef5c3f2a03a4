package io.gantry.deviceagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.gpusharing.DeviceNaming;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.gantry.nodecommon.settings.NodeSettings;
import io.gantry.nodecommon.settings.NvidiaSmiSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceAgentSettingsTest {
  @TempDir Path tmp;

  private DeviceAgentSettings settings(Path pluginDir, int shareSlots, OptionalInt port) {
    return new DeviceAgentSettings(
        new NodeSettings("gpu-0", ClusterAccess.defaults(), Duration.ofSeconds(30)),
        new NvidiaSmiSettings("nvidia-smi", Duration.ofSeconds(30)),
        DiscoveryMode.AUTO,
        Optional.empty(),
        pluginDir,
        shareSlots,
        DeviceNaming.UUID,
        Path.of("/proc"),
        false,
        Optional.empty(),
        tmp.resolve("node-agent.sock"),
        port,
        true);
  }

  @Test
  void validSettingsAreKept() {
    DeviceAgentSettings settings = settings(tmp, 100, OptionalInt.of(65_535));

    assertThat(settings.devicePluginDirectory()).isEqualTo(tmp);
    assertThat(settings.shareSlotsPerGpu()).isEqualTo(100);
    assertThat(settings.nodeAgentPort()).hasValue(65_535);
  }

  @Test
  void aNodeAgentPortOutOfRangeIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> settings(tmp, 100, OptionalInt.of(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--node-agent-port must be in 1..65535, got 0");
    assertThatThrownBy(() -> settings(tmp, 100, OptionalInt.of(65_536)))
        .hasMessage("--node-agent-port must be in 1..65535, got 65536");
  }

  @Test
  void noShareSlotsIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> settings(tmp, 0, OptionalInt.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--share-slots-per-gpu must be at least 1, got 0");
  }

  @Test
  void aDevicePluginDirectoryThatIsNotThereIsRefusedNamingTheOption() {
    Path missing = tmp.resolve("nope");

    assertThatThrownBy(() -> settings(missing, 100, OptionalInt.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--device-plugin-dir " + missing + " is not a directory");
  }
}
