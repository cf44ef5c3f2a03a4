package io.gantry.gpusharing.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GpuHealthTest {
  @Test
  void unhealthyExactlyWhenThereAreReasons() {
    assertThat(GpuHealth.fromReasons(List.of())).isEqualTo(GpuHealth.HEALTHY);
    assertThat(GpuHealth.fromReasons(List.of("x")))
        .isEqualTo(new GpuHealth(HealthStatus.UNHEALTHY, List.of("x")));
    assertThatThrownBy(() -> new GpuHealth(HealthStatus.UNHEALTHY, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GpuHealth(HealthStatus.HEALTHY, List.of("x")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
