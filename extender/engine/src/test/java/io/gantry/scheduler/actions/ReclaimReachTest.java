package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.FakeTicker;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reclaim pre-check ({@link ReclaimReach}) on four full 8-GPU nodes whose 32 one-GPU jobs
 * belong to queue qa, and a gang of eight 1-GPU pods in qb. Reclaim may take from qa only while it
 * stays over its deserved quota, so with qa 6 GPUs over no scenario frees 8 and the search is
 * skipped; with qa 8 over it is searched and succeeds. Either way the cycle decides and reports
 * exactly what the baseline strategy's full search does. The ticker counts reads: one when the
 * action starts, more only when a job is searched for.
 */
class ReclaimReachTest {
  private static final int NODES = 4;

  private static ClusterSnapshot cluster(double qaDeservedGpus) {
    List<NodeInfo> nodes = new ArrayList<>();
    List<JobInfo> jobs = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      String node = "n" + n;
      nodes.add(Nodes.node(node).gpus(8).build());
      for (int j = 0; j < 8; j++) {
        jobs.add(
            Jobs.job(node + "-" + j)
                .queue("qa")
                .task(Tasks.task("t").gpus(1).running(node))
                .build());
      }
    }
    jobs.add(Jobs.job("gang").queue("qb").minMember(8).tasks(8, t -> t.gpus(1)).build());
    return Snapshots.of(
        nodes,
        List.of(
            Queues.queue("qa").gpu(qaDeservedGpus, 1, -1).build(),
            Queues.queue("qb").gpu(8, 1, -1).build()),
        jobs);
  }

  @Test
  void aGangNoAcceptedScenarioCouldFreeEnoughForIsNotSearchedFor() {
    ClusterSnapshot snapshot = cluster(26);
    FakeTicker indexedTicker = new FakeTicker();
    FakeTicker baselineTicker = new FakeTicker();

    CycleResult indexed = Cycles.run(snapshot, SearchStrategy.INDEXED, indexedTicker, "reclaim");
    CycleResult baseline = Cycles.run(snapshot, SearchStrategy.BASELINE, baselineTicker, "reclaim");

    assertThat(indexed.decisions()).isEmpty();
    assertThat(Cycles.status(indexed, "ns/gang/t0")).isEqualTo(TaskStatus.PENDING);
    assertThat(indexedTicker.reads()).as("the reclaim budget starts; no search").isEqualTo(1);
    assertThat(baselineTicker.reads()).as("the baseline searches").isGreaterThan(1);
    assertThat(indexed).isEqualTo(baseline);
  }

  @Test
  void aGangAnAcceptedScenarioCanFreeEnoughForIsSearchedForAndPlaced() {
    ClusterSnapshot snapshot = cluster(24);
    FakeTicker indexedTicker = new FakeTicker();

    CycleResult indexed = Cycles.run(snapshot, SearchStrategy.INDEXED, indexedTicker, "reclaim");

    assertThat(indexedTicker.reads()).isGreaterThan(1);
    assertThat(Cycles.evicted(indexed)).hasSize(8);
    for (int t = 0; t < 8; t++) {
      assertThat(Cycles.status(indexed, "ns/gang/t" + t)).isEqualTo(TaskStatus.PIPELINED);
    }
    assertThat(indexed)
        .isEqualTo(Cycles.run(snapshot, SearchStrategy.BASELINE, new FakeTicker(), "reclaim"));
  }
}
