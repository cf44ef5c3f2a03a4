package io.gantry.kubemodel.kai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.scheduler.model.JobLifecycle;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link PodGroupLifecycle}: KAI's PodGroup annotations and spec durations, both ways. */
class PodGroupLifecycleTest {
  private static final Instant STARTED = Instant.parse("2026-01-02T03:04:05Z");

  @Test
  void readsTheAnnotationsAndTheSpecDurations() {
    JobLifecycle lifecycle =
        PodGroupLifecycle.read(
            Map.of(
                "kai.scheduler/last-start-timestamp", "2026-01-02T03:04:05Z",
                "kai.scheduler/last-eviction-timestamp", "2026-01-02T04:04:05+01:00",
                "kai.scheduler/stale-podgroup-timestamp", "2026-01-02T03:10:00Z"),
            Optional.of("5m"),
            Optional.of("-1s"));

    assertThat(lifecycle)
        .isEqualTo(
            new JobLifecycle(
                Optional.of(STARTED),
                Optional.of(STARTED),
                Optional.of(Instant.parse("2026-01-02T03:10:00Z")),
                Optional.of(Duration.ofMinutes(5)),
                Optional.of(Duration.ofSeconds(-1))));
  }

  @Test
  void aPodGroupWithoutThemHasNone() {
    assertThat(PodGroupLifecycle.read(Map.of(), Optional.empty(), Optional.of("")))
        .isEqualTo(JobLifecycle.NONE);
  }

  @Test
  void aTimestampThatDoesNotParseIsIgnored() {
    assertThat(
            PodGroupLifecycle.read(
                    Map.of("kai.scheduler/last-start-timestamp", "yesterday"),
                    Optional.empty(),
                    Optional.empty())
                .lastStartedAt())
        .isEmpty();
  }

  @Test
  void aBadDurationNamesTheSpecField() {
    assertThatThrownBy(
            () -> PodGroupLifecycle.read(Map.of(), Optional.of("soon"), Optional.empty()))
        .isInstanceOfSatisfying(
            KaiObjectException.class, e -> assertThat(e.field()).isEqualTo("spec.preemptionDelay"));
    assertThatThrownBy(() -> PodGroupLifecycle.read(Map.of(), Optional.of("-5m"), Optional.empty()))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> assertThat(e.problem()).isEqualTo("must not be negative, got \"-5m\""));
    assertThatThrownBy(
            () -> PodGroupLifecycle.read(Map.of(), Optional.empty(), Optional.of("1 hour")))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> assertThat(e.field()).isEqualTo("spec.stalenessGracePeriod"));
  }

  @Test
  void writesWholeSecondsInUtcAndAnEmptyValueForWhatIsGone() {
    JobLifecycle lifecycle =
        JobLifecycle.NONE.withLastStartedAt(Optional.of(STARTED.plusMillis(750)));

    assertThat(PodGroupLifecycle.annotations(lifecycle))
        .containsExactly(
            Map.entry("kai.scheduler/last-eviction-timestamp", Optional.empty()),
            Map.entry("kai.scheduler/last-start-timestamp", Optional.of("2026-01-02T03:04:05Z")),
            Map.entry("kai.scheduler/stale-podgroup-timestamp", Optional.empty()));
  }
}
