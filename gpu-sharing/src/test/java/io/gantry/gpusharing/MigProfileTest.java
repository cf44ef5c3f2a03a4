package io.gantry.gpusharing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableSortedMap;
import org.junit.jupiter.api.Test;

/** kai-reference §5.1: a MIG instance counts the GPU slices of its profile name. */
class MigProfileTest {
  @Test
  void parsesProfiles() {
    assertThat(MigProfile.ofResource("nvidia.com/mig-1g.10gb"))
        .contains(new MigProfile("1g.10gb", 1, 10));
    assertThat(MigProfile.ofResource("nvidia.com/mig-3g.40gb+me"))
        .contains(new MigProfile("3g.40gb+me", 3, 40));
    assertThat(MigProfile.ofResource("nvidia.com/gpu")).isEmpty();
  }

  @Test
  void countsSlicesTimesInstances() {
    assertThat(
            MigProfile.gpusOf(
                ImmutableSortedMap.of(
                    "nvidia.com/mig-1g.10gb", 3L,
                    "nvidia.com/mig-2g.20gb", 2L,
                    "example.com/fpga", 5L)))
        .isEqualTo(GpuAmount.ofDevices(7));
  }

  @Test
  void aMalformedProfileIsAnError() {
    assertThatThrownBy(() -> MigProfile.ofResource("nvidia.com/mig-big"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "MIG resource nvidia.com/mig-big does not name a profile of the form <g>g.<memory>gb,"
                + " such as nvidia.com/mig-1g.10gb");
  }
}
