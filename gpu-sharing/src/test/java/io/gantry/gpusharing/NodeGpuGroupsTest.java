package io.gantry.gpusharing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** kai-reference §7: a group holds its device from its first task until its last one leaves. */
class NodeGpuGroupsTest {
  private static final GpuAmount QUARTER = GpuAmount.ofHundredths(25);
  private static final GpuAmount HALF = GpuAmount.ofHundredths(50);

  @Test
  void theFirstTaskOpensTheGroupAndTheLastReturnsItsDevice() {
    NodeGpuGroups groups = new NodeGpuGroups();

    assertThat(groups.place("g", HALF, ComputeMode.TIME_SLICING, false, DeviceSource.IDLE))
        .isTrue();
    assertThat(groups.place("g", QUARTER, ComputeMode.TIME_SLICING, true, DeviceSource.IDLE))
        .isFalse();
    assertThat(groups.views())
        .containsExactly(
            new GpuGroupView("g", HALF, QUARTER, ComputeMode.TIME_SLICING, DeviceSource.IDLE));
    assertThat(groups.remove("g", HALF, false)).isEmpty();
    assertThat(groups.wholeDevicesFreedByReleasing()).isEqualTo(1);
    assertThat(groups.remove("g", QUARTER, true)).contains(DeviceSource.IDLE);
    assertThat(groups.isEmpty()).isTrue();
  }

  @Test
  void aDeviceTakenFromReleasingCapacityGoesBackThere() {
    NodeGpuGroups groups = new NodeGpuGroups();
    groups.place("g", QUARTER, ComputeMode.TIME_SLICING, false, DeviceSource.RELEASING);

    assertThat(groups.views().get(0).idlePortion()).isEqualTo(GpuAmount.ZERO);
    assertThat(groups.views().get(0).idleOrReleasingPortion())
        .isEqualTo(GpuAmount.ofHundredths(75));
    assertThat(groups.remove("g", QUARTER, false)).isEqualTo(Optional.of(DeviceSource.RELEASING));
  }

  @Test
  void twoComputeModesNeverShareAGroup() {
    NodeGpuGroups groups = new NodeGpuGroups();
    groups.place("g", QUARTER, ComputeMode.MPS, false, DeviceSource.IDLE);

    assertThat(groups.views().get(0).accepts(QUARTER, ComputeMode.TIME_SLICING)).isFalse();
    assertThat(groups.views().get(0).accepts(QUARTER, ComputeMode.MPS)).isTrue();
    assertThatThrownBy(
            () -> groups.place("g", QUARTER, ComputeMode.TIME_SLICING, false, DeviceSource.IDLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("GPU group g runs mps tasks; a time-slicing task cannot share it");
  }

  @Test
  void roomAndNewIdsSkipWhatIsTaken() {
    NodeGpuGroups groups = new NodeGpuGroups();
    assertThat(groups.largestRoomHundredths()).isEqualTo(-1);
    groups.place("n-gpu0", HALF, ComputeMode.TIME_SLICING, false, DeviceSource.IDLE);
    groups.place("n-gpu2", QUARTER, ComputeMode.TIME_SLICING, false, DeviceSource.IDLE);

    assertThat(groups.largestRoomHundredths()).isEqualTo(75);
    assertThat(groups.newGroupId("n", 0)).isEqualTo("n-gpu1");
    assertThat(groups.newGroupId("n", 1)).isEqualTo("n-gpu3");
  }

  @Test
  void viewsAndRoomFollowEveryChangeOfAGroup() {
    NodeGpuGroups groups = new NodeGpuGroups();
    groups.place("g", QUARTER, ComputeMode.TIME_SLICING, false, DeviceSource.IDLE);
    assertThat(groups.largestRoomHundredths()).isEqualTo(75);

    groups.place("g", HALF, ComputeMode.TIME_SLICING, false, DeviceSource.IDLE);
    assertThat(groups.largestRoomHundredths()).isEqualTo(25);
    groups.pipelined("g", HALF, true);
    assertThat(groups.views())
        .containsExactly(
            new GpuGroupView(
                "g",
                GpuAmount.ofHundredths(75),
                GpuAmount.ZERO,
                ComputeMode.TIME_SLICING,
                DeviceSource.IDLE,
                HALF));
    groups.pipelined("g", HALF, false);
    groups.remove("g", HALF, false);
    assertThat(groups.views())
        .containsExactly(
            new GpuGroupView(
                "g", QUARTER, GpuAmount.ZERO, ComputeMode.TIME_SLICING, DeviceSource.IDLE));
    assertThat(groups.views().get(0).accepts(GpuAmount.ofHundredths(75), ComputeMode.TIME_SLICING))
        .isTrue();
    assertThat(groups.views().get(0).accepts(GpuAmount.ofHundredths(76), ComputeMode.TIME_SLICING))
        .isFalse();
  }

  @Test
  void removingFromAnUnknownGroupIsAnError() {
    assertThatThrownBy(() -> new NodeGpuGroups().remove("g", HALF, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no GPU group g on this node");
  }
}
