package io.gantry.nodecommon.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeSettingsTest {
  @Test
  void keepsWhatItIsGiven() {
    NodeSettings settings =
        new NodeSettings("gpu-0", Optional.of(Path.of("/k")), Duration.ofSeconds(1));

    assertThat(settings.nodeName()).isEqualTo("gpu-0");
    assertThat(settings.kubeconfig()).contains(Path.of("/k"));
    assertThat(settings.discoveryInterval()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aMissingOrBlankNodeNameIsRefusedNamingTheOptionAndTheVariable() {
    assertThatThrownBy(() -> new NodeSettings(null, Optional.empty(), Duration.ofSeconds(30)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--node-name is required (or set NODE_NAME)");
    assertThatThrownBy(() -> new NodeSettings(" ", Optional.empty(), Duration.ofSeconds(30)))
        .hasMessage("--node-name is required (or set NODE_NAME)");
  }

  @Test
  void anIntervalUnderOneSecondIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> new NodeSettings("n", Optional.empty(), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--discovery-interval must be at least 1 second, got 0");
    assertThatThrownBy(() -> new NodeSettings("n", Optional.empty(), Duration.ofSeconds(-5)))
        .hasMessage("--discovery-interval must be at least 1 second, got -5");
  }
}
