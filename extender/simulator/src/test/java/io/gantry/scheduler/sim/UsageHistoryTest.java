package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.kubemodel.config.UsageSpec;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class UsageHistoryTest {
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  private static final List<NodeInfo> EIGHT_GPUS =
      List.of(
          new NodeInfo(
              "n",
              ImmutableSortedMap.of(),
              ImmutableList.of(),
              Resources.of(8000, 1L << 30, GpuAmount.ofDevices(8)),
              0,
              false,
              110,
              false,
              true));

  private static UsageSpec sliding(Duration window, Duration halfLife) {
    return new UsageSpec(window, halfLife, UsageSpec.WindowType.SLIDING, Duration.ZERO);
  }

  private static CycleResult holding(double aGpus, double bGpus) {
    return new CycleResult(
        ImmutableList.of(),
        ImmutableList.of(),
        ImmutableList.of(),
        ImmutableList.of(queue("a", aGpus), queue("b", bGpus)),
        ImmutableList.of());
  }

  private static QueueOutcome queue(String name, double gpus) {
    ResourceVector held = new ResourceVector(gpus, 0, 0);
    return new QueueOutcome(name, ResourceVector.ZERO, held, ResourceVector.ZERO);
  }

  private static double gpus(UsageHistory history, String queue, Instant now) {
    return history.usage(now).getOrDefault(queue, ResourceVector.ZERO).gpus();
  }

  @Test
  void usageIsTheWindowedAllocationOverTheWindowedCapacity() {
    UsageHistory history =
        new UsageHistory(sliding(Duration.ofMinutes(10), Duration.ZERO), T0, EIGHT_GPUS);
    history.record(T0, holding(8, 0));
    history.record(T0.plusSeconds(60), holding(4, 4));

    Instant now = T0.plusSeconds(120);

    assertThat(gpus(history, "a", now)).isEqualTo(12.0 / 16);
    assertThat(gpus(history, "b", now)).isEqualTo(4.0 / 16);
  }

  @Test
  void aSlidingWindowForgetsWhatIsOlderThanTheWindow() {
    UsageHistory history =
        new UsageHistory(sliding(Duration.ofMinutes(1), Duration.ZERO), T0, EIGHT_GPUS);
    history.record(T0, holding(8, 0));
    history.record(T0.plusSeconds(60), holding(0, 8));

    assertThat(gpus(history, "a", T0.plusSeconds(120))).isZero();
    assertThat(gpus(history, "b", T0.plusSeconds(120))).isEqualTo(1.0);
  }

  @Test
  void aHalfLifeWeighsOlderSamplesLess() {
    UsageHistory history =
        new UsageHistory(sliding(Duration.ofHours(1), Duration.ofMinutes(1)), T0, EIGHT_GPUS);
    history.record(T0, holding(8, 0));
    history.record(T0.plusSeconds(60), holding(0, 8));

    Instant now = T0.plusSeconds(120);
    // a's sample is 2 half-lives old (weight 1/4), b's one half-life old (weight 1/2).
    assertThat(gpus(history, "a", now)).isCloseTo(2.0 / 6, within(1e-12));
    assertThat(gpus(history, "b", now)).isCloseTo(4.0 / 6, within(1e-12));
  }

  @Test
  void aTumblingWindowRestartsEveryWindowSize() {
    UsageSpec tumbling =
        new UsageSpec(
            Duration.ofMinutes(2), Duration.ZERO, UsageSpec.WindowType.TUMBLING, Duration.ZERO);
    UsageHistory history = new UsageHistory(tumbling, T0, EIGHT_GPUS);
    history.record(T0, holding(8, 0));
    history.record(T0.plusSeconds(60), holding(8, 0));
    history.record(T0.plusSeconds(120), holding(0, 8));

    assertThat(gpus(history, "a", T0.plusSeconds(119))).isEqualTo(1.0);
    assertThat(gpus(history, "a", T0.plusSeconds(180))).isZero();
    assertThat(gpus(history, "b", T0.plusSeconds(180))).isEqualTo(1.0);
  }

  @Test
  void nothingRecordedMeansNoUsage() {
    UsageHistory history =
        new UsageHistory(sliding(Duration.ofDays(7), Duration.ZERO), T0, EIGHT_GPUS);

    assertThat(history.usage(T0)).isEmpty();
  }
}
