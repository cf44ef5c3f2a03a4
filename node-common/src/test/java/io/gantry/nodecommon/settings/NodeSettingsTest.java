package io.gantry.nodecommon.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.nodecommon.kube.ClusterAccess;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class NodeSettingsTest {
  @Test
  void keepsWhatItIsGiven() {
    NodeSettings settings =
        new NodeSettings("gpu-0", ClusterAccess.ofKubeconfig(Path.of("/k")), Duration.ofSeconds(1));

    assertThat(settings.nodeName()).isEqualTo("gpu-0");
    assertThat(settings.cluster().kubeconfig()).contains(Path.of("/k"));
    assertThat(settings.discoveryInterval()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aMissingOrBlankNodeNameIsRefusedNamingTheOptionAndTheVariable() {
    assertThatThrownBy(
            () -> new NodeSettings(null, ClusterAccess.defaults(), Duration.ofSeconds(30)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--node-name is required (or set NODE_NAME)");
    assertThatThrownBy(
            () -> new NodeSettings(" ", ClusterAccess.defaults(), Duration.ofSeconds(30)))
        .hasMessage("--node-name is required (or set NODE_NAME)");
  }

  @Test
  void anIntervalUnderOneSecondIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> new NodeSettings("n", ClusterAccess.defaults(), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--discovery-interval must be at least 1 second, got 0");
    assertThatThrownBy(
            () -> new NodeSettings("n", ClusterAccess.defaults(), Duration.ofSeconds(-5)))
        .hasMessage("--discovery-interval must be at least 1 second, got -5");
  }
}
