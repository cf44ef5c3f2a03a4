package io.gantry.scheduler.actions;

import static io.gantry.scheduler.testing.Cycles.evicted;
import static io.gantry.scheduler.testing.Cycles.status;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The reclaim action end to end (kai-reference §4.8, §5.6): who may reclaim, from whom, and which
 * scenarios every queue stays fair in. One 8-GPU node unless said otherwise.
 */
class ReclaimActionTest {

  /** {@code count} running 1-GPU jobs named {@code prefix-i} in {@code queue} on node n1. */
  private static List<JobInfo> running(String prefix, String queue, int count) {
    List<JobInfo> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(
          Jobs.job(count == 1 ? prefix : prefix + "-" + i)
              .queue(queue)
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    return out;
  }

  private static CycleResult reclaim(List<QueueInfo> queues, List<JobInfo> jobs) {
    return Cycles.run(
        Snapshots.of(List.of(Nodes.node("n1").gpus(8).build()), queues, jobs), "reclaim");
  }

  @Test
  void theSimulationOrdersQueuesByTheirFirstPendingJobSoAVictimCanTakeItsPlaceBack() {
    // KAI integration reclaim_test "… yet we don't reclaim because allocate will case a loop":
    // q1's first pending job (3 GPUs) makes q1 rank after q0 in the simulated allocation, so the
    // evicted q0 pod is placed again before q1's 1-GPU job and no scenario frees a GPU for it
    List<JobInfo> jobs =
        List.of(
            Jobs.job("q0-run-2").queue("q0").task(Tasks.task("t").gpus(2).running("n1")).build(),
            Jobs.job("q0-run-1")
                .queue("q0")
                .createdAt(Snapshots.T0.plusSeconds(1))
                .task(Tasks.task("t").gpus(1).running("n1"))
                .build(),
            Jobs.job("q1-run")
                .queue("q1")
                .createdAt(Snapshots.T0.plusSeconds(2))
                .task(Tasks.task("t").gpus(1).running("n1"))
                .build(),
            Jobs.job("q1-big")
                .queue("q1")
                .createdAt(Snapshots.T0.plusSeconds(3))
                .task(Tasks.task("t").gpus(3))
                .build(),
            Jobs.job("q1-small")
                .queue("q1")
                .createdAt(Snapshots.T0.plusSeconds(4))
                .task(Tasks.task("t").gpus(1))
                .build(),
            Jobs.job("q0-pending")
                .queue("q0")
                .createdAt(Snapshots.T0.plusSeconds(5))
                .task(Tasks.task("t").gpus(1))
                .build());

    CycleResult r =
        Cycles.run(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(4).build()),
                List.of(
                    Queues.queue("q0").gpu(2, 2, -1).build(),
                    Queues.queue("q1").gpu(2, 2, -1).build()),
                jobs),
            "reclaim");

    assertThat(evicted(r)).isEmpty();
    assertThat(status(r, "ns/q1-small/t")).isEqualTo(TaskStatus.PENDING);
  }

  @Test
  void aRecordedVictimCountsAsTakenFromItsQueueWhenTheVictimQueueIsRebuilt() {
    // KAI reclaim_test "Reclaim jobs according to queue fair share": the probe for the first
    // reclaimer pod records the newest low-priority job of one queue; the probe for both pods
    // passes over that recorded job, counts it as taken from its queue, and so takes the next
    // victim from the sibling queue, not a second one from the same queue
    List<JobInfo> jobs = new ArrayList<>();
    for (String q : List.of("q0", "q1")) {
      for (int i = 0; i < 3; i++) {
        jobs.add(
            Jobs.job(q + "-" + i)
                .queue(q)
                .priority(i == 2 ? 49 : 50)
                .task(Tasks.task("t").gpus(1).running("n1"))
                .build());
      }
    }
    jobs.add(Jobs.job("reclaimer").queue("r").minMember(2).tasks(2, t -> t.gpus(1)).build());

    CycleResult r =
        Cycles.run(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(6).build()),
                List.of(
                    Queues.queue("d1").gpu(1, 1, -1).build(),
                    Queues.queue("q0").parent("d1").gpu(1, 1, -1).build(),
                    Queues.queue("q1").parent("d1").gpu(1, 1, -1).build(),
                    Queues.queue("r").parent("d1").gpu(2, 0, -1).build()),
                jobs),
            "reclaim");

    assertThat(evicted(r)).containsExactlyInAnyOrder("ns/q0-2/t", "ns/q1-2/t");
    assertThat(status(r, "ns/reclaimer/t0")).isEqualTo(TaskStatus.PIPELINED);
  }

  @Test
  void aQueueUnderItsQuotaTakesBackTheNewestJobsOfAQueueOverItsFairShare() {
    List<JobInfo> jobs = new ArrayList<>(running("a", "qa", 8));
    jobs.add(Jobs.job("b").queue("qb").task(Tasks.task("t").gpus(2)).build());

    CycleResult r =
        reclaim(
            List.of(
                Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build()),
            jobs);

    assertThat(evicted(r)).containsExactly("ns/a-7/t", "ns/a-6/t");
    assertThat(status(r, "ns/b/t")).isEqualTo(TaskStatus.PIPELINED);
    assertThat(Cycles.evictions(r).get(0).cause())
        .isEqualTo(new EvictionCause("reclaim", Optional.of("ns/b"), 2));
    assertThat(Cycles.evictions(r).get(0).message())
        .isEqualTo(
            "Pod ns/a-7-t was preempted by workload ns/b.\n"
                + "qa uses <GPU: 8, CPU: 0 (cores), memory: 0 (GB)> with a quota of <GPU: 4, CPU:"
                + " Unlimited (cores), memory: Unlimited (GB)>, fair-share of <GPU: 6, CPU: 0"
                + " (cores), memory: 0 (GB)> and queue priority of <100>.\n"
                + "qb uses <GPU: 0, CPU: 0 (cores), memory: 0 (GB)> with a quota of <GPU: 4, CPU:"
                + " Unlimited (cores), memory: Unlimited (GB)>, fair-share of <GPU: 2, CPU: 0"
                + " (cores), memory: 0 (GB)> and queue priority of <100>.");
  }

  @Test
  void aMigReclaimerCountsFreeAndReleasingMigInstancesAsTheirGpuSlices() {
    // KAI reclaimMIG_test "Simple reclaim with MIG jobs": the idle-GPU filter of the victim search
    // counts MIG instances (KAI GetSumOfIdleGPUs), or the scenario would be pruned for want of
    // whole GPUs
    String mig = "nvidia.com/mig-1g.10gb";
    CycleResult r =
        Cycles.run(
            Snapshots.of(
                List.of(
                    Nodes.node("n1")
                        .extended(mig, 2)
                        .label("nvidia.com/mig.strategy", "mixed")
                        .build()),
                List.of(
                    Queues.queue("qa").gpu(0, 0, -1).build(),
                    Queues.queue("qb").gpu(2, 0, -1).build()),
                List.of(
                    Jobs.job("a")
                        .queue("qa")
                        .task(Tasks.task("t").extended(mig, 1).running("n1"))
                        .build(),
                    Jobs.job("b").queue("qb").task(Tasks.task("t").extended(mig, 2)).build())),
            "reclaim");

    assertThat(evicted(r)).containsExactly("ns/a/t");
    assertThat(status(r, "ns/b/t")).isEqualTo(TaskStatus.PIPELINED);
  }

  @Test
  void aQueueAtItsFairShareReclaimsNothing() {
    List<JobInfo> jobs = new ArrayList<>(running("a", "qa", 6));
    jobs.addAll(running("b", "qb", 2));
    jobs.add(Jobs.job("more").queue("qb").task(Tasks.task("t").gpus(1)).build());

    CycleResult r =
        reclaim(
            List.of(
                Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(2, 0, -1).build()),
            jobs);

    assertThat(evicted(r)).isEmpty();
    assertThat(status(r, "ns/more/t")).isEqualTo(TaskStatus.PENDING);
  }

  @Test
  void aQueueWithinItsQuotaLosesNothingEvenToAQueueUnderItsOwn() {
    // qa holds exactly its deserved 4; qb wants 6 of its deserved 4 plus surplus
    List<JobInfo> jobs = new ArrayList<>(running("a", "qa", 4));
    jobs.addAll(running("b", "qb", 4));
    jobs.add(Jobs.job("more").queue("qb").task(Tasks.task("t").gpus(1)).build());

    CycleResult r =
        reclaim(
            List.of(
                Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build()),
            jobs);

    assertThat(evicted(r)).isEmpty();
  }

  @Test
  void nonPreemptibleJobsAreNeverVictims() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      jobs.add(
          Jobs.job("a-" + i)
              .queue("qa")
              .priority(125)
              .nonPreemptible()
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    jobs.add(Jobs.job("b").queue("qb").task(Tasks.task("t").gpus(2)).build());

    CycleResult r =
        reclaim(
            List.of(
                Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build()),
            jobs);

    assertThat(evicted(r)).isEmpty();
  }

  @Test
  void reclaimIgnoresJobPriority() {
    // the victims outrank the reclaimer; reclaim is between queues and ignores job priority
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      jobs.add(
          Jobs.job("a-" + i)
              .queue("qa")
              .priority(75)
              .task(Tasks.task("t").gpus(1).running("n1"))
              .build());
    }
    jobs.add(Jobs.job("b").queue("qb").priority(50).task(Tasks.task("t").gpus(1)).build());

    CycleResult r =
        reclaim(
            List.of(
                Queues.queue("qa").gpu(4, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build()),
            jobs);

    assertThat(evicted(r)).containsExactly("ns/a-7/t");
  }

  @Test
  void theSiblingSaturationMultiplierStopsAReclaimerFromOvertakingItsSibling() {
    // 12 GPUs. Department p (deserved 4, no surplus) holds 4 through r2 and its team r (deserved
    // 1) asks for 1 more; s holds 8 of a fair share of 4 (t's unplaceable 100-GPU job takes the
    // other half of the surplus). After reclaiming one GPU p is at 5/4 = 1.25 of its fair share and
    // s at 7/4 = 1.75: with the multiplier 1, 1.25 stays below 1.75; with 2, 2.5 does not.
    List<JobInfo> jobs = new ArrayList<>(running("r2", "r2", 4));
    jobs.addAll(running("s", "s", 8));
    jobs.add(Jobs.job("r").queue("r").task(Tasks.task("t").gpus(1)).build());
    jobs.add(Jobs.job("t").queue("t").task(Tasks.task("t").gpus(100)).build());
    List<QueueInfo> queues =
        List.of(
            Queues.queue("p").gpu(4, 0, -1).build(),
            Queues.queue("r").parent("p").gpu(1, 1, -1).build(),
            Queues.queue("r2").parent("p").gpu(0, 1, -1).build(),
            Queues.queue("s").gpu(0, 1, -1).build(),
            Queues.queue("t").gpu(0, 1, -1).build());
    var snapshot = Snapshots.of(List.of(Nodes.node("n1").gpus(12).build()), queues, jobs);

    CycleResult plain = Cycles.run(snapshot, "reclaim");
    CycleResult doubled =
        Cycles.run(
            snapshot,
            EvictionSettings.DEFAULTS,
            Map.of(
                "proportion",
                new PluginSetting(
                    Optional.empty(), ImmutableSortedMap.of("relcaimerSaturationMultiplier", 2))),
            "reclaim");

    assertThat(evicted(plain)).containsExactly("ns/s-7/t");
    assertThat(evicted(doubled)).isEmpty();
  }

  @Test
  void departmentsAreComparedBelowTheirCommonAncestorAndQuotedInTheMessage() {
    List<JobInfo> jobs = new ArrayList<>(running("a", "a1", 8));
    jobs.add(Jobs.job("b").queue("b1").minMember(4).tasks(4, t -> t.gpus(1)).build());
    List<QueueInfo> queues =
        List.of(
            Queues.queue("dept-a").gpu(4, 1, -1).build(),
            Queues.queue("a1").parent("dept-a").gpu(2, 1, -1).build(),
            Queues.queue("dept-b").gpu(4, 1, -1).build(),
            Queues.queue("b1").parent("dept-b").gpu(4, 1, -1).build());

    CycleResult r = reclaim(queues, jobs);

    assertThat(evicted(r)).containsExactly("ns/a-7/t", "ns/a-6/t", "ns/a-5/t", "ns/a-4/t");
    assertThat(Cycles.evictions(r).get(0).message())
        .contains("\ndept-a uses <GPU: 8,")
        .contains("\ndept-b uses <GPU: 0,");
  }
}
