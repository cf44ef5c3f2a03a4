package io.gantry.scheduler.actions;

import static io.gantry.scheduler.testing.Cycles.evicted;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Stale gang eviction (kai-reference §4.10): stale timestamps set and cleared, the grace period of
 * the job or the scheduler, and KAI's messages and events.
 */
class StaleGangEvictionActionTest {

  /** A gang of 3 with 2 pods running on n1 and one pending. */
  private static Jobs.Builder shortGang(String name) {
    return Jobs.job(name)
        .queue("q")
        .minMember(3)
        .task(
            Tasks.task("a").gpus(1).running("n1"),
            Tasks.task("b").gpus(1).running("n1"),
            Tasks.task("c").gpus(1));
  }

  private static CycleResult run(JobInfo... jobs) {
    return run(EvictionSettings.DEFAULTS, jobs);
  }

  private static CycleResult run(EvictionSettings settings, JobInfo... jobs) {
    return Cycles.run(
        Snapshots.of(
            List.of(Nodes.node("n1").gpus(2).build()),
            List.of(Queues.queue("q").build()),
            List.of(jobs)),
        settings,
        Map.of(),
        "stalegangeviction");
  }

  @Test
  void aGangFirstSeenStaleGetsItsTimestampAndAnEventButKeepsRunning() {
    CycleResult r = run(shortGang("g").build());

    assertThat(evicted(r)).isEmpty();
    assertThat(Cycles.job(r, "ns/g").lifecycle().staleSince()).contains(Snapshots.T0);
    assertThat(r.events())
        .containsExactly(
            new CycleEvent("ns/g", "StaleJob", "Job is stale. 2 pods are active, minMember is 3"));
  }

  @Test
  void afterTheDefaultGraceEveryPlacedPodIsEvicted() {
    CycleResult r = run(shortGang("g").staleSince(Snapshots.T0.minusSeconds(60)).build());

    assertThat(evicted(r)).containsExactly("ns/g/a", "ns/g/b");
    assertThat(Cycles.evictions(r).get(0).message())
        .isEqualTo(
            "Workload doesn't meet the minimum required number of pods (3), evicting remaining"
                + " pod: ns/g-a");
    assertThat(Cycles.evictions(r).get(0).cause())
        .isEqualTo(new EvictionCause("stalegangeviction", Optional.empty(), 2));
    assertThat(Cycles.status(r, "ns/g/a")).isEqualTo(TaskStatus.RELEASING);
    assertThat(Cycles.job(r, "ns/g").lifecycle().lastEvictedAt()).contains(Snapshots.T0);
  }

  @Test
  void theJobsGracePeriodWinsAndANegativeOneNeverEvicts() {
    CycleResult r =
        run(
            shortGang("patient")
                .staleSince(Snapshots.T0.minusSeconds(120))
                .stalenessGracePeriod(Duration.ofMinutes(5))
                .build(),
            shortGang("quick")
                .staleSince(Snapshots.T0.minusSeconds(2))
                .stalenessGracePeriod(Duration.ofSeconds(1))
                .build(),
            shortGang("never")
                .staleSince(Snapshots.T0.minusSeconds(3600))
                .stalenessGracePeriod(Duration.ofSeconds(-1))
                .build());

    assertThat(evicted(r)).containsExactly("ns/quick/a", "ns/quick/b");
  }

  @Test
  void aNegativeDefaultGraceNeverEvicts() {
    EvictionSettings never =
        new EvictionSettings(Duration.ofSeconds(-1), 16, true, EvictionSettings.DEFAULTS.budgets());

    assertThat(
            evicted(run(never, shortGang("g").staleSince(Snapshots.T0.minusSeconds(3600)).build())))
        .isEmpty();
  }

  @Test
  void aHealthyGangHasItsTimestampCleared() {
    JobInfo healthy =
        Jobs.job("g")
            .queue("q")
            .minMember(2)
            .staleSince(Snapshots.T0.minusSeconds(30))
            .task(Tasks.task("a").gpus(1).running("n1"), Tasks.task("b").gpus(1).running("n1"))
            .build();

    CycleResult r = run(healthy);

    assertThat(Cycles.job(r, "ns/g").lifecycle().staleSince()).isEmpty();
    assertThat(r.events()).isEmpty();
  }

  @Test
  void aGangWithASucceededPodOrNoActivePodIsNotStale() {
    JobInfo finished =
        Jobs.job("done")
            .queue("q")
            .minMember(3)
            .staleSince(Snapshots.T0.minusSeconds(3600))
            .task(
                Tasks.task("a").gpus(1).running("n1"),
                Tasks.task("b").status(TaskStatus.SUCCEEDED),
                Tasks.task("c").gpus(1))
            .build();
    JobInfo waiting = Jobs.job("waiting").queue("q").minMember(2).tasks(2, t -> t.gpus(1)).build();

    CycleResult r = run(finished, waiting);

    assertThat(evicted(r)).isEmpty();
    assertThat(r.events()).isEmpty();
  }

  @Test
  void aShortSubGroupIsNamedInTheMessageAndEvent() {
    JobInfo job =
        Jobs.job("g")
            .queue("q")
            .subGroups(OptionalInt.empty(), Jobs.podSet("workers", 2), Jobs.podSet("ps", 1))
            .staleSince(Snapshots.T0.minusSeconds(3600))
            .task(
                Tasks.task("w0").podSet("workers").gpus(1).running("n1"),
                Tasks.task("w1").podSet("workers").gpus(1),
                Tasks.task("p0").podSet("ps").gpus(1).running("n1"))
            .build();

    CycleResult r = run(job);

    assertThat(Cycles.evictions(r))
        .extracting(e -> e.message())
        .containsExactly(
            "Workload doesn't meet the minimum required number of pods (2) in sub-group workers,"
                + " evicting remaining pod: ns/g-w0",
            "Workload doesn't meet the minimum required number of pods (2) in sub-group workers,"
                + " evicting remaining pod: ns/g-p0");
    assertThat(Cycles.events(r, "StaleJob").get(0).message())
        .isEqualTo(
            "Job is stale. 2 pods are active, minMember is 3, subGroup workers minMember is 2 and"
                + " 1 pods are active");
  }
}
