package io.gantry.scheduler.sim.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The inflate protocol's arithmetic, checked by hand on two 1-GPU nodes (2,000 thousandths). */
class InflateCurveTest {
  private static final List<TraceNode> NODES =
      List.of(TraceFixtures.node("n1", 1, "T4"), TraceFixtures.node("n2", 1, "T4"));

  // arrived demand after each: 1000 (x=50), 1500 (x=75), 2500 (x=125), 2800 (x=140)
  private static final List<TraceTask> ARRIVALS =
      List.of(
          TraceFixtures.task("whole", 1, 1000),
          TraceFixtures.task("half", 1, 500),
          TraceFixtures.task("dropped", 1, 1000),
          TraceFixtures.task("late", 1, 300));

  private static final List<Optional<TraceLedger.Placed>> PLACEMENTS =
      List.of(
          Optional.of(new TraceLedger.Placed("n1", ImmutableList.of(), GpuAmount.ZERO)),
          Optional.of(
              new TraceLedger.Placed("n2", ImmutableList.of("g"), GpuAmount.ofHundredths(50))),
          Optional.empty(),
          Optional.of(
              new TraceLedger.Placed("n2", ImmutableList.of("g"), GpuAmount.ofHundredths(30))));

  private final ImmutableList<InflatePoint> curve =
      InflateCurve.of(NODES, ARRIVALS, PLACEMENTS, new FragmentationGauge(ARRIVALS), 130);

  @Test
  void unallocatedShareFollowsTheArrivalsWithinEachX() {
    assertThat(curve).hasSize(131);
    assertThat(curve.get(49).unallocatedPercent()).isEqualTo(100.0);
    assertThat(curve.get(50).unallocatedPercent()).isEqualTo(50.0);
    assertThat(curve.get(74).unallocatedPercent()).isEqualTo(50.0);
    assertThat(curve.get(75).unallocatedPercent()).isEqualTo(25.0);
    assertThat(curve.get(100).unallocatedPercent()).isEqualTo(25.0);
    // the dropped task arrives at x=125 and allocates nothing; the last one (x=140) never comes
    assertThat(curve.get(130).unallocatedPercent()).isEqualTo(25.0);
  }

  /**
   * At x=100, n1 is full and n2 has 500 free on one device. The trace's GPU shapes by popularity: 1
   * GPU (whole, dropped) 1/2, 0.5 1/4, 0.3 1/4. A whole GPU cannot use the 500 (all of it is a
   * fragment for it), the others can: fragmented = 1/2 × 500 = 250 of 500 free, 50%.
   */
  @Test
  void fragmentationRateCountsWhatTheMixCannotUse() {
    assertThat(curve.get(100).fragmentationPercent().orElseThrow()).isCloseTo(50.0, within(1e-9));
    assertThat(curve.get(100).cpuBoundPercent().orElseThrow()).isEqualTo(0.0);
    assertThat(curve.get(99).fragmentationPercent()).isEmpty();
  }
}
