package io.gantry.scheduler.sim.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The inflation protocol: the shuffled trace, then draws while demand stays within the ratio. */
class InflateArrivalsTest {
  private static final List<TraceTask> TASKS = TraceFixtures.tasks(50, 3);

  @Test
  void startsWithTheWholeTraceShuffledAndStopsBeforePassingTheRatio() {
    // the trace asks for 57,020 thousandths; 1.3 × 50,000 leaves room to append draws
    long capacity = 50_000;
    ImmutableList<TraceTask> arrivals = InflateArrivals.of(TASKS, capacity, 1.3, 42);

    assertThat(arrivals.subList(0, TASKS.size())).containsExactlyInAnyOrderElementsOf(TASKS);
    assertThat(arrivals.subList(0, TASKS.size())).isNotEqualTo(TASKS);
    long demand = arrivals.stream().mapToLong(TraceTask::gpuDemandMilli).sum();
    assertThat(demand).isLessThanOrEqualTo(65_000);
    assertThat(arrivals.size()).isGreaterThan(TASKS.size());
  }

  @Test
  void theSameSeedGivesTheSameArrivalsAndAnotherSeedOthers() {
    assertThat(InflateArrivals.of(TASKS, 20_000, 1.3, 42))
        .isEqualTo(InflateArrivals.of(TASKS, 20_000, 1.3, 42))
        .isNotEqualTo(InflateArrivals.of(TASKS, 20_000, 1.3, 43));
  }

  @Test
  void rejectsARatioThatIsNotPositive() {
    assertThatThrownBy(() -> InflateArrivals.of(TASKS, 20_000, 0, 42))
        .hasMessage("ratio must be positive, got 0.0");
  }
}
