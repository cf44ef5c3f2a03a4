package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.FakeTicker;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reclaim pre-check never changes a decision: on random full clusters — running whole-GPU and
 * shared-GPU jobs of queues over and under their quotas (two of them siblings under a department),
 * pending whole-GPU gangs, fractions and CPU-only jobs in every queue — a cycle of allocate and
 * reclaim decides and reports exactly what the baseline strategy's full search does. Over all
 * seeds, some jobs are skipped (fewer clock reads than the baseline's) and some reclaims succeed.
 */
class ReclaimReachEquivalenceTest {
  private static final String[] LEAVES = {"a1", "a2", "b", "c"};

  @Test
  void skippingHopelessSearchesDecidesWhatTheFullSearchDoes() {
    int withSkips = 0;
    int withEvictions = 0;
    for (long seed = 1; seed <= 60; seed++) {
      Random random = new Random(seed);
      int nodes = 3 + random.nextInt(5);
      ClusterSnapshot snapshot = Snapshots.of(nodes(nodes), queues(random), jobs(random, nodes));
      FakeTicker indexedTicker = new FakeTicker();
      FakeTicker baselineTicker = new FakeTicker();

      CycleResult indexed =
          Cycles.run(snapshot, SearchStrategy.INDEXED, indexedTicker, "allocate", "reclaim");
      CycleResult baseline =
          Cycles.run(snapshot, SearchStrategy.BASELINE, baselineTicker, "allocate", "reclaim");

      assertThat(indexed).as("seed %d", seed).isEqualTo(baseline);
      if (indexedTicker.reads() < baselineTicker.reads()) {
        withSkips++;
      }
      if (!Cycles.evicted(indexed).isEmpty()) {
        withEvictions++;
      }
    }
    assertThat(withSkips).as("seeds where a search was skipped").isGreaterThanOrEqualTo(4);
    assertThat(withEvictions).as("seeds where reclaim evicted").isGreaterThan(20);
  }

  private static List<NodeInfo> nodes(int count) {
    List<NodeInfo> out = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      out.add(Nodes.node("n" + n).gpus(8).cpuMillis(64_000).memory("256Gi").build());
    }
    return out;
  }

  private static List<QueueInfo> queues(Random random) {
    return List.of(
        Queues.queue("dept").gpu(4 + random.nextInt(20), 1, -1).build(),
        Queues.queue("a1").parent("dept").gpu(random.nextInt(12), 1, -1).build(),
        Queues.queue("a2").parent("dept").gpu(random.nextInt(12), 1, -1).build(),
        Queues.queue("b").gpu(random.nextInt(16), 1, -1).build(),
        Queues.queue("c").gpu(random.nextInt(16), 1, -1).build());
  }

  /** Every node filled with running jobs of random queues, then pending jobs of every kind. */
  private static List<JobInfo> jobs(Random random, int nodes) {
    List<JobInfo> out = new ArrayList<>();
    int running = 0;
    for (int n = 0; n < nodes; n++) {
      String node = "n" + n;
      int free = 8;
      while (free > 0) {
        String name = "r" + running++;
        String queue = LEAVES[random.nextInt(LEAVES.length)];
        if (random.nextInt(5) == 0) {
          // two halves of one device, one job each
          String group = node + "-gpu" + (8 - free);
          out.add(
              Jobs.job(name)
                  .queue(queue)
                  .task(Tasks.task("t").gpuFraction(0.5).running(node).onGpuGroups(0.5, group))
                  .build());
          out.add(
              Jobs.job(name + "b")
                  .queue(LEAVES[random.nextInt(LEAVES.length)])
                  .task(Tasks.task("t").gpuFraction(0.5).running(node).onGpuGroups(0.5, group))
                  .build());
          free--;
        } else {
          int gpus = Math.min(free, 1 + random.nextInt(2));
          out.add(
              Jobs.job(name).queue(queue).task(Tasks.task("t").gpus(gpus).running(node)).build());
          free -= gpus;
        }
      }
    }
    for (int j = 0; j < 6; j++) {
      String queue = LEAVES[random.nextInt(LEAVES.length)];
      int kind = random.nextInt(4);
      int size = 1 + random.nextInt(4);
      Jobs.Builder job =
          Jobs.job("p" + j)
              .queue(queue)
              .priority(random.nextBoolean() ? 50 : 100)
              .createdAt(Snapshots.T0.plusSeconds(j))
              .minMember(kind < 2 ? 2 * size : size);
      out.add(
          switch (kind) {
            case 0, 1 -> job.tasks(2 * size, t -> t.gpus(1 + random.nextInt(2))).build();
            case 2 -> job.tasks(size, t -> t.gpuFraction(0.5)).build();
            default -> job.tasks(size, t -> t.cpu("1").memory("1Gi")).build();
          });
    }
    return out;
  }
}
