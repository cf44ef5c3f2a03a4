package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.FakeTicker;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On 1,000 full 8-GPU nodes (8,000 running 1-GPU jobs of an over-quota queue), a job that asks for
 * 16 GPUs in one pod can be helped by no eviction: every eviction action declares it at once,
 * without searching — the budget's ticker is read only when each action starts — and its fit
 * message says why. The same cluster with a job that fits a node once freed does search.
 */
class UnhelpableJobScaleTest {
  private static final int NODES = 1_000;

  private static ClusterSnapshot cluster(long pendingGpus) {
    List<NodeInfo> nodes = new ArrayList<>();
    List<JobInfo> jobs = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      String node = String.format("n%04d", n);
      nodes.add(Nodes.node(node).gpus(8).build());
      for (int j = 0; j < 8; j++) {
        jobs.add(
            Jobs.job(node + "-" + j)
                .queue("qa")
                .task(Tasks.task("t").gpus(1).running(node))
                .build());
      }
    }
    jobs.add(Jobs.job("big").queue("qb").task(Tasks.task("t").gpus(pendingGpus)).build());
    return Snapshots.of(
        nodes,
        List.of(
            Queues.queue("qa").gpu(0, 1, -1).build(), Queues.queue("qb").gpu(4000, 1, -1).build()),
        jobs);
  }

  private static CycleResult run(ClusterSnapshot snapshot, FakeTicker ticker) {
    SchedulerConfig config =
        new SchedulerConfig(
            SchedulerConfig.DEFAULT_ACTIONS,
            ImmutableSortedMap.of(),
            Placement.DEFAULTS,
            EvictionSettings.DEFAULTS);
    return new SchedulerWiring(new ActionRegistry(), new PluginRegistry(), ticker)
        .cycle(config)
        .run(snapshot);
  }

  @Test
  void aJobNoEvictionCanHelpIsDeclaredWithoutSearching() {
    // every read of the search clock takes a minute: a search would soon run out of its budget
    FakeTicker ticker = new FakeTicker(Duration.ofMinutes(1));

    CycleResult result = run(cluster(16), ticker);

    assertThat(Cycles.evicted(result)).isEmpty();
    // consolidation, reclaim and preempt each read the clock once, to start their budget
    assertThat(ticker.reads()).isEqualTo(3);
    assertThat(Cycles.job(result, "ns/big").fitMessage())
        .contains(
            "PodSchedulingErrors: Resources were not found for pod ns/big-t due to: no eviction can"
                + " make room for it: no nodes with enough resources were found: 1000 node(s)"
                + " didn't have enough allocatable resources: GPUs. \n"
                + "Resources were not found for pod ns/big-t due to: no nodes with enough resources"
                + " were found: 1000 node(s) didn't have enough resources: GPUs.");
  }

  @Test
  void aJobThatFitsANodeOnceFreedIsSearchedFor() {
    FakeTicker ticker = new FakeTicker();

    CycleResult result = run(cluster(8), ticker);

    assertThat(ticker.reads()).isGreaterThan(3);
    assertThat(Cycles.evicted(result)).hasSize(8);
  }

  @Test
  void theCheckIsTheSameForEveryActionOnce() {
    CycleResult result = run(cluster(16), new FakeTicker());

    assertThat(Cycles.job(result, "ns/big").fitMessage().orElseThrow())
        .containsOnlyOnce("no eviction can make room");
    assertThat(ImmutableList.copyOf(result.decisions())).isEmpty();
  }
}
