package io.gantry.scheduler.actions;

import static io.gantry.scheduler.testing.Cycles.evicted;
import static io.gantry.scheduler.testing.Cycles.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
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
import org.junit.jupiter.api.Test;

/**
 * The consolidation action (kai-reference §4.7, §10.5): running pods move only where the scenario
 * also re-places them; off with spread and with maxConsolidationPreemptees 0. Two 4-GPU nodes with
 * two free GPUs each and a pending 3-GPU job.
 */
class ConsolidationActionTest {

  private static ClusterSnapshot fragmented(boolean preemptible) {
    List<JobInfo> jobs = new ArrayList<>();
    String[] nodes = {"n0", "n0", "n1", "n1"};
    for (int i = 0; i < 4; i++) {
      Jobs.Builder job =
          Jobs.job("r-" + i).queue("q").task(Tasks.task("t").gpus(1).running(nodes[i]));
      if (!preemptible) {
        job.priority(100).nonPreemptible();
      }
      jobs.add(job.build());
    }
    jobs.add(Jobs.job("big").queue("q").task(Tasks.task("t").gpus(3)).build());
    return Snapshots.of(
        List.of(Nodes.node("n0").gpus(4).build(), Nodes.node("n1").gpus(4).build()),
        List.of(Queues.queue("q").gpu(8, 1, -1).build()),
        jobs);
  }

  @Test
  void movesTheNewestPodToTheOtherNodeAndPlacesTheJobWhereItWas() {
    CycleResult r = Cycles.run(fragmented(true), "consolidation");

    assertThat(evicted(r)).containsExactly("ns/r-3/t");
    assertThat(status(r, "ns/r-3/t")).isEqualTo(TaskStatus.PIPELINED);
    assertThat(status(r, "ns/big/t")).isEqualTo(TaskStatus.PIPELINED);
    assertThat(pipelinedTo(r, "ns/r-3/t")).isEqualTo("n0");
    assertThat(pipelinedTo(r, "ns/big/t")).isEqualTo("n1");
    assertThat(Cycles.evictions(r).get(0).message())
        .isEqualTo(
            "Pod ns/r-3-t was preempted and rescheduled due to bin packing (resource"
                + " consolidation) procedure");
    // the moved pod's old place still releases: the node outcome shows it
    assertThat(r.nodes().get(1).releasingGpus()).isEqualTo(1);
  }

  @Test
  void neverMovesAPodOfAJobThatIsNotReady() {
    // issue 23: v (minMember 3) has a failed pod, so 2 of 3 exist and it is not ready: it gets no
    // placement this cycle, not even its running pod's way back, so nothing moves for big
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(Nodes.node("n0").gpus(3).build(), Nodes.node("n1").gpus(2).build()),
            List.of(Queues.queue("q").gpu(8, 1, -1).build()),
            List.of(
                Jobs.job("v")
                    .queue("q")
                    .minMember(3)
                    .task(
                        Tasks.task("a").gpus(1).running("n0"),
                        Tasks.task("b").gpus(1),
                        Tasks.task("c").gpus(1).status(TaskStatus.FAILED))
                    .build(),
                Jobs.job("big").queue("q").task(Tasks.task("t").gpus(3)).build()));

    CycleResult r = Cycles.run(snapshot, "consolidation");

    assertThat(evicted(r)).isEmpty();
    assertThat(status(r, "ns/v/b")).isEqualTo(TaskStatus.PENDING);
    assertThat(status(r, "ns/big/t")).isEqualTo(TaskStatus.PENDING);
  }

  @Test
  void neverMovesNonPreemptiblePods() {
    assertThat(evicted(Cycles.run(fragmented(false), "consolidation"))).isEmpty();
  }

  @Test
  void isOffWithSpreadPlacementAndWithZeroPreemptees() {
    Placement spread = new Placement(PlacementStrategy.SPREAD, PlacementStrategy.BINPACK);
    EvictionSettings none =
        new EvictionSettings(
            EvictionSettings.DEFAULTS.defaultStalenessGracePeriod(),
            0,
            true,
            EvictionSettings.DEFAULTS.budgets());

    assertThat(
            evicted(
                Cycles.run(
                    fragmented(true),
                    EvictionSettings.DEFAULTS,
                    Map.of(),
                    spread,
                    "consolidation")))
        .isEmpty();
    assertThat(evicted(Cycles.run(fragmented(true), none, Map.of(), "consolidation"))).isEmpty();
  }

  @Test
  void doesNothingWhenTheClusterLacksTheFreeGpusAnyway() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(
          Jobs.job("r-" + i)
              .queue("q")
              .task(Tasks.task("t").gpus(1).running(i < 3 ? "n0" : "n1"))
              .build());
    }
    // 4 + 1 free GPUs but the job needs 6
    jobs.add(Jobs.job("big").queue("q").task(Tasks.task("t").gpus(6)).build());
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(Nodes.node("n0").gpus(4).build(), Nodes.node("n1").gpus(4).build()),
            List.of(Queues.queue("q").gpu(8, 1, -1).build()),
            jobs);

    assertThat(evicted(Cycles.run(snapshot, "consolidation"))).isEmpty();
  }

  @Test
  void neverLeavesAVictimWithoutAPlace() {
    // moving either pod of n1 would need room on n0, which has none: nothing moves
    List<JobInfo> jobs = new ArrayList<>();
    jobs.add(Jobs.job("a").queue("q").task(Tasks.task("t").gpus(4).running("n0")).build());
    jobs.add(Jobs.job("b").queue("q").task(Tasks.task("t").gpus(2).running("n1")).build());
    jobs.add(Jobs.job("big").queue("q").task(Tasks.task("t").gpus(3)).build());
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(Nodes.node("n0").gpus(4).build(), Nodes.node("n1").gpus(4).build()),
            List.of(Queues.queue("q").gpu(8, 1, -1).build()),
            jobs);

    assertThat(evicted(Cycles.run(snapshot, "consolidation"))).isEmpty();
  }

  @Test
  void movesAFractionOntoTheOtherNodesSharedGpuToFreeAWholeOne() {
    // each 1-GPU node runs half a GPU: the newer half moves beside the older one
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(Nodes.node("n0").gpus(1).build(), Nodes.node("n1").gpus(1).build()),
            List.of(Queues.queue("q").gpu(2, 1, -1).build()),
            List.of(
                Jobs.job("half-0")
                    .queue("q")
                    .task(Tasks.task("t").gpuFraction(0.5).running("n0").onGpuGroups(0.5, "g0"))
                    .build(),
                Jobs.job("half-1")
                    .queue("q")
                    .task(Tasks.task("t").gpuFraction(0.5).running("n1").onGpuGroups(0.5, "g1"))
                    .build(),
                Jobs.job("whole").queue("q").task(Tasks.task("t").gpus(1)).build()));

    CycleResult r = Cycles.run(snapshot, "consolidation");

    assertThat(evicted(r)).containsExactly("ns/half-1/t");
    assertThat(status(r, "ns/half-1/t")).isEqualTo(TaskStatus.PIPELINED);
    assertThat(pipelinedTo(r, "ns/half-1/t")).isEqualTo("n0");
    assertThat(pipelined(r, "ns/half-1/t").gpuGroups()).containsExactly("g0");
    assertThat(status(r, "ns/whole/t")).isEqualTo(TaskStatus.PIPELINED);
    assertThat(pipelinedTo(r, "ns/whole/t")).isEqualTo("n1");
  }

  private static String pipelinedTo(CycleResult r, String taskId) {
    return pipelined(r, taskId).nodeName();
  }

  private static PipelineDecision pipelined(CycleResult r, String taskId) {
    return r.decisions().stream()
        .filter(d -> d.kind() == Decision.Kind.PIPELINE && d.taskId().equals(taskId))
        .map(d -> (PipelineDecision) d)
        .findFirst()
        .orElseThrow();
  }
}
