package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.DeviceSource;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.model.GpuTopology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Naming the whole GPUs of a node with interconnect domains (GPUs 0-3 and 4-7). */
class GpuDevicesTest {
  private static final GpuTopology TWO_DOMAINS =
      GpuTopology.of(List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7)));

  private final GpuDevices devices = new GpuDevices(TWO_DOMAINS, 8);

  @Test
  void aTaskGetsTheDomainWithRoomThatHasTheFewestFreeDevices() {
    devices.takeWhole(1, 0, false, List.of(1), List.of());

    assertThat(devices.takeWhole(2, 0, false, List.of(), List.of())).containsExactly(0, 2);
    assertThat(devices.takeWhole(4, 0, false, List.of(), List.of())).containsExactly(4, 5, 6, 7);
  }

  @Test
  void withoutADomainWithRoomTheFullestDomainsComeFirst() {
    devices.takeWhole(2, 0, false, List.of(0, 1), List.of());
    devices.takeWhole(1, 0, false, List.of(4), List.of());

    assertThat(devices.takeWhole(4, 0, false, List.of(), List.of())).containsExactly(2, 5, 6, 7);
  }

  @Test
  void wantedDevicesAreKeptOnlyWhenNoOtherTaskHoldsThem() {
    devices.takeWhole(1, 0, false, List.of(5), List.of());

    assertThat(devices.takeWhole(1, 0, true, List.of(6), List.of())).containsExactly(6);
    // 5 is held: the task gets a device of the domain with the fewest free ones
    assertThat(devices.takeWhole(1, 0, false, List.of(5), List.of())).containsExactly(4);
  }

  @Test
  void aPipelinedTaskTakesDevicesBeingReleasedAndGivingBackFreesThem() {
    List<Integer> releasing = devices.takeWhole(2, 0, true, List.of(2, 3), List.of());

    assertThat(devices.takeWhole(0, 2, false, List.of(), List.of())).containsExactly(2, 3);

    devices.giveWhole(releasing, true);
    devices.giveWhole(List.of(2, 3), false);
    assertThat(devices.takeWhole(4, 0, false, List.of(), List.of())).containsExactly(0, 1, 2, 3);
  }

  @Test
  void aSharedGroupHoldsItsDeviceUntilItCloses() {
    devices.openGroup("g", DeviceSource.IDLE, List.of());
    List<GpuGroupView> groups =
        List.of(
            new GpuGroupView(
                "g",
                GpuAmount.ofDevicesRoundedHalfUp(0.5),
                GpuAmount.ZERO,
                ComputeMode.TIME_SLICING,
                DeviceSource.IDLE));

    assertThat(devices.takeWhole(4, 0, false, List.of(), groups)).containsExactly(4, 5, 6, 7);
    assertThat(devices.takeWhole(3, 0, false, List.of(), groups)).containsExactly(1, 2, 3);

    devices.closeGroup("g");
    assertThat(devices.takeWhole(1, 0, false, List.of(), List.of())).containsExactly(0);
  }

  @Test
  void anUnhealthyDeviceIsNeverGiven() {
    // GPU 1 is unhealthy: the node offers 7 GPUs, named 0 and 2-7
    GpuDevices withUnhealthy =
        new GpuDevices(
            GpuTopology.of(List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7)), List.of(1)), 7);

    assertThat(withUnhealthy.takeWhole(3, 0, false, List.of(1, 2, 3), List.of()))
        .containsExactly(0, 2, 3);
    assertThat(withUnhealthy.takeWhole(4, 0, false, List.of(), List.of()))
        .containsExactly(4, 5, 6, 7);
  }
}
