package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The minruntime plugin (kai-reference §10.2) through reclaim and preempt: where the min-runtime is
 * read from ({@code lca} and {@code queue}), the plugin's defaults, and elastic victims.
 */
class MinRuntimePluginTest {
  private static final Duration STARTED_AGO = Duration.ofMinutes(5);

  /** Department a (a1 over quota, started 5 minutes ago) and department b (b1 idle). */
  private static ClusterSnapshot departments(Duration deptA, Duration teamA1) {
    List<QueueInfo> queues =
        List.of(
            Queues.queue("dept-a").gpu(4, 1, -1).reclaimMinRuntime(deptA).build(),
            Queues.queue("a1").parent("dept-a").gpu(4, 1, -1).reclaimMinRuntime(teamA1).build(),
            Queues.queue("dept-b").gpu(4, 1, -1).build(),
            Queues.queue("b1").parent("dept-b").gpu(4, 1, -1).build());
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      jobs.add(
          Jobs.job("a-" + i)
              .queue("a1")
              .lastStartedAt(Snapshots.T0.minus(STARTED_AGO))
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    jobs.add(Jobs.job("b").queue("b1").task(Tasks.task("t").gpus(1)).build());
    return Snapshots.of(List.of(Nodes.node("n1").gpus(8).build()), queues, jobs);
  }

  private static CycleResult reclaim(ClusterSnapshot snapshot, Map<String, Object> args) {
    return Cycles.run(
        snapshot,
        EvictionSettings.DEFAULTS,
        Map.of("minruntime", new PluginSetting(Optional.empty(), ImmutableSortedMap.copyOf(args))),
        "reclaim");
  }

  @Test
  void lcaReadsTheVictimsQueueBelowTheCommonAncestorAndUp() {
    // a1 says 0s, dept-a says 10m: lca starts at dept-a and protects; queue starts at a1
    ClusterSnapshot snapshot = departments(Duration.ofMinutes(10), Duration.ZERO);

    assertThat(Cycles.evicted(reclaim(snapshot, Map.of()))).isEmpty();
    assertThat(Cycles.evicted(reclaim(snapshot, Map.of("reclaimResolveMethod", "queue"))))
        .containsExactly("ns/a-7/t");
  }

  @Test
  void aRuntimeAlreadyServedProtectsNothing() {
    ClusterSnapshot snapshot = departments(Duration.ofMinutes(4), Duration.ofMinutes(4));

    assertThat(Cycles.evicted(reclaim(snapshot, Map.of()))).containsExactly("ns/a-7/t");
  }

  @Test
  void theDefaultAppliesWhereNoQueueSetsOne() {
    List<QueueInfo> queues =
        List.of(Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build());
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      jobs.add(
          Jobs.job("a-" + i)
              .queue("qa")
              .lastStartedAt(Snapshots.T0.minus(STARTED_AGO))
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    jobs.add(Jobs.job("b").queue("qb").task(Tasks.task("t").gpus(1)).build());
    ClusterSnapshot snapshot =
        Snapshots.of(List.of(Nodes.node("n1").gpus(8).build()), queues, jobs);

    assertThat(Cycles.evicted(reclaim(snapshot, Map.of("defaultReclaimMinRuntime", "10m"))))
        .isEmpty();
    assertThat(Cycles.evicted(reclaim(snapshot, Map.of()))).containsExactly("ns/a-7/t");
  }

  @Test
  void aProtectedElasticJobLosesSurplusButNeverItsGang() {
    // the elastic job (gang of 2, 6 running) started a minute ago and is protected for 10
    List<QueueInfo> queues =
        List.of(
            Queues.queue("qa").gpu(2, 1, -1).reclaimMinRuntime(Duration.ofMinutes(10)).build(),
            Queues.queue("qb").gpu(6, 1, -1).build());
    JobInfo elastic =
        Jobs.job("e")
            .queue("qa")
            .minMember(2)
            .lastStartedAt(Snapshots.T0.minus(Duration.ofMinutes(1)))
            .tasks(6, t -> t.gpus(1).running("n1"))
            .build();
    JobInfo wants = Jobs.job("b").queue("qb").minMember(6).tasks(6, t -> t.gpus(1)).build();
    ClusterSnapshot snapshot =
        Snapshots.of(List.of(Nodes.node("n1").gpus(6).build()), queues, List.of(elastic, wants));

    // the gang needs 6 GPUs: only the 4 surplus pods may go, so nothing is reclaimed
    assertThat(Cycles.evicted(reclaim(snapshot, Map.of()))).isEmpty();
    JobInfo smaller = Jobs.job("b").queue("qb").minMember(4).tasks(4, t -> t.gpus(1)).build();
    assertThat(
            Cycles.evicted(
                reclaim(
                    Snapshots.of(
                        List.of(Nodes.node("n1").gpus(6).build()),
                        queues,
                        List.of(elastic, smaller)),
                    Map.of())))
        .containsExactlyInAnyOrder("ns/e/t5", "ns/e/t4", "ns/e/t3", "ns/e/t2");
  }
}
