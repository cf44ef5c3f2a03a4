package io.gantry.scheduler.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.gpusharing.GpuAmount;
import org.junit.jupiter.api.Test;

/** The queue resource vector: per-kind access, arithmetic, and exact amounts as doubles. */
class ResourceVectorTest {
  private final ResourceVector v = new ResourceVector(1.5, 2_000, 3e9);

  @Test
  void readsAndReplacesEachKind() {
    assertThat(v.get(ResourceKind.GPU)).isEqualTo(1.5);
    assertThat(v.get(ResourceKind.CPU)).isEqualTo(2_000);
    assertThat(v.get(ResourceKind.MEMORY)).isEqualTo(3e9);
    assertThat(v.with(ResourceKind.CPU, 500)).isEqualTo(new ResourceVector(1.5, 500, 3e9));
  }

  @Test
  void addsAndSubtracts() {
    assertThat(v.plus(v)).isEqualTo(new ResourceVector(3, 4_000, 6e9));
    assertThat(v.minus(v)).isEqualTo(ResourceVector.ZERO);
  }

  @Test
  void convertsExactResources() {
    assertThat(ResourceVector.of(Resources.of(1_000, 2_000, GpuAmount.ofHundredths(51))))
        .isEqualTo(new ResourceVector(0.51, 1_000, 2_000));
  }

  @Test
  void rejectsNonFiniteComponents() {
    assertThatThrownBy(() -> new ResourceVector(Double.NaN, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gpus must be finite, was NaN");
  }
}
