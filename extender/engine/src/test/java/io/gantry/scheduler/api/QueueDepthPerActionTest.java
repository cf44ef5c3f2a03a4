package io.gantry.scheduler.api;

import static io.gantry.scheduler.testing.Jobs.job;
import static io.gantry.scheduler.testing.Nodes.node;
import static io.gantry.scheduler.testing.Queues.queue;
import static io.gantry.scheduler.testing.Tasks.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.actions.ActionRegistry;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.QueueDepthPerAction;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.cycle.SchedulingCycle;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.testing.FakeTicker;
import io.gantry.scheduler.testing.Snapshots;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * KAI's {@code queueDepthPerAction} (kai-reference §2.5, §4.5) through the cycle API: an action
 * considers at most N jobs of each leaf queue, those KAI's bounded heap keeps.
 */
class QueueDepthPerActionTest {
  /**
   * Queue {@code a} holds jobs of priority 10, 20 and 30, created in that order; queue {@code b}
   * one job. Four one-GPU nodes fit all four jobs.
   */
  private static final ClusterSnapshot SNAPSHOT =
      Snapshots.of(
          List.of(
              node("n1").gpus(1).build(),
              node("n2").gpus(1).build(),
              node("n3").gpus(1).build(),
              node("n4").gpus(1).build()),
          List.of(queue("a").build(), queue("b").build()),
          List.of(
              job("p10").queue("a").priority(10).task(task("t0").gpus(1)).build(),
              job("p20").queue("a").priority(20).task(task("t0").gpus(1)).build(),
              job("p30").queue("a").priority(30).task(task("t0").gpus(1)).build(),
              job("other").queue("b").task(task("t0").gpus(1)).build()));

  @Test
  void allocateConsidersTheJobsKaisBoundedHeapKeepsInEachQueue() {
    CycleResult result = run(Map.of("allocate", 2));

    // p20 was sifted to index 2 when p30 was pushed, and index 2 is what a depth of 2 drops
    assertThat(boundJobs(result)).containsExactlyInAnyOrder("p10", "p30", "other");
  }

  @Test
  void withoutADepthEveryJobIsConsidered() {
    assertThat(boundJobs(run(Map.of()))).containsExactlyInAnyOrder("p10", "p20", "p30", "other");
  }

  @Test
  void minusOneIsUnlimitedAndZeroConsidersNothing() {
    assertThat(boundJobs(run(Map.of("allocate", -1))))
        .containsExactlyInAnyOrder("p10", "p20", "p30", "other");
    assertThat(boundJobs(run(Map.of("allocate", 0)))).isEmpty();
  }

  @Test
  void aDepthForAnActionThatIsNotConfiguredStopsTheCycleNamingTheKey() {
    assertThatThrownBy(() -> cycle(Map.of("reclaim", 3)))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> {
              assertThat(e.key()).isEqualTo("queueDepthPerAction.reclaim");
              assertThat(e.problem())
                  .isEqualTo("\"reclaim\" is not one of the configured actions allocate");
            });
  }

  @Test
  void aDepthBelowMinusOneIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> QueueDepthPerAction.of(Map.of("allocate", -2)))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> {
              assertThat(e.key()).isEqualTo("queueDepthPerAction.allocate");
              assertThat(e.problem())
                  .isEqualTo("must be -1 (unlimited) or >= 0 jobs per queue, got -2");
            });
  }

  private static CycleResult run(Map<String, Integer> depths) {
    return cycle(depths).run(SNAPSHOT);
  }

  private static SchedulingCycle cycle(Map<String, Integer> depths) {
    SchedulerConfig config =
        new SchedulerConfig(
                ImmutableList.of("allocate"), ImmutableSortedMap.of(), Placement.DEFAULTS)
            .withQueueDepthPerAction(QueueDepthPerAction.of(depths));
    return new SchedulerWiring(new ActionRegistry(), new PluginRegistry(), new FakeTicker())
        .cycle(config);
  }

  /** The names of the jobs with a bound task. */
  private static List<String> boundJobs(CycleResult result) {
    return result.decisions().stream()
        .filter(d -> d.kind() == Decision.Kind.BIND)
        .map(d -> d.taskId().substring(3, d.taskId().lastIndexOf('/')))
        .toList();
  }
}
