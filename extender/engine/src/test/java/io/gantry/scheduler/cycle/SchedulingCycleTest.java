package io.gantry.scheduler.cycle;

import static io.gantry.scheduler.testing.Jobs.job;
import static io.gantry.scheduler.testing.Nodes.node;
import static io.gantry.scheduler.testing.Queues.queue;
import static io.gantry.scheduler.testing.Tasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.JobOutcome;
import io.gantry.scheduler.api.result.NodeOutcome;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.api.result.QueueOutcome;
import io.gantry.scheduler.api.result.TaskOutcome;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobLifecycle;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Snapshots;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The cycle API returns, as values, what the actions decided and why. */
class SchedulingCycleTest {
  private final SchedulingCycle cycle = new SchedulerWiring().cycle(SchedulerConfig.DEFAULTS);

  @Test
  void gangIsBoundWholeAndReportedPerQueueAndNode() {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(node("n1").gpus(8).build(), node("n2").gpus(8).build()),
            List.of(queue("team").gpu(4, 1, -1).build()),
            List.of(job("train").queue("team").minMember(2).tasks(2, t -> t.gpus(4)).build()));

    CycleResult result = cycle.run(snapshot);

    assertThat(result.decisions())
        .containsExactly(
            new BindDecision("ns/train/t0", "n1", ImmutableList.of(), GpuAmount.ZERO),
            new BindDecision("ns/train/t1", "n1", ImmutableList.of(), GpuAmount.ZERO));
    assertThat(result.events())
        .extracting(CycleEvent::reason)
        .containsExactly("Scheduled", "Scheduled");
    assertThat(result.jobs())
        .containsExactly(
            new JobOutcome(
                "ns/train",
                Optional.empty(),
                ImmutableList.of(
                    new TaskOutcome("ns/train/t0", TaskStatus.BINDING, Optional.empty()),
                    new TaskOutcome("ns/train/t1", TaskStatus.BINDING, Optional.empty())),
                // the job starts now: its last-start timestamp is set
                JobLifecycle.NONE.withLastStartedAt(Optional.of(Snapshots.T0))));
    QueueOutcome team = result.queues().get(0);
    assertThat(team.allocated()).isEqualTo(new ResourceVector(8, 0, 0));
    assertThat(team.allocatedNonPreemptible()).isEqualTo(ResourceVector.ZERO);
    // quota 4 plus surplus, capped at what the queue asks for
    assertThat(team.fairShare().gpus()).isEqualTo(8);
    assertThat(result.nodes())
        .containsExactly(
            new NodeOutcome("n1", 0, 0, 8, ImmutableList.of()),
            new NodeOutcome("n2", 8, 0, 0, ImmutableList.of()));
  }

  @Test
  void aJobOverItsQueueLimitWaitsWithKaisMessageOnJobTaskAndEvent() {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(node("n1").gpus(8).build()),
            List.of(queue("team").gpu(0, 1, 2).build()),
            List.of(job("big").queue("team").task(task("t0").gpus(4)).build()));

    CycleResult result = cycle.run(snapshot);

    assertThat(result.decisions()).isEmpty();
    JobOutcome big = result.jobs().get(0);
    assertThat(big.fitMessage())
        .contains(
            "OverLimit: team quota has reached the allowable limit of GPUs. Limit is 2 GPUs,"
                + " currently 0 GPUs allocated and workload requested 4 GPUs.");
    assertThat(big.tasks().get(0).fitMessage()).isEqualTo(big.fitMessage());
    assertThat(result.events())
        .containsExactly(new CycleEvent("ns/big", "Unschedulable", big.fitMessage().orElseThrow()));
    assertThat(result.nodes().get(0).idleGpus()).isEqualTo(8);
  }

  @Test
  void aPipelinedTaskHoldsNothingOnTheNodeAfterTheCycle() {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(node("n1").gpus(2).build()),
            List.of(queue("team").build()),
            List.of(
                job("old").queue("team").task(task("t0").gpus(2).releasing("n1")).build(),
                job("new").queue("team").task(task("t0").gpus(2)).build()));

    CycleResult result = cycle.run(snapshot);

    assertThat(result.decisions())
        .containsExactly(
            new PipelineDecision("ns/new/t0", "n1", ImmutableList.of(), GpuAmount.ZERO));
    assertThat(result.jobs().get(1).tasks().get(0).status()).isEqualTo(TaskStatus.PIPELINED);
    assertThat(result.nodes()).containsExactly(new NodeOutcome("n1", 0, 2, 0, ImmutableList.of()));
  }

  @Test
  void sharedGpuUseIsReportedPerGroup() {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(node("n1").gpus(2).gpuMemoryMib(81920).build()),
            List.of(queue("team").build()),
            List.of(
                job("a").queue("team").task(task("t0").gpuFraction(0.5)).build(),
                job("b").queue("team").task(task("t0").gpuFraction(0.25)).build()));

    CycleResult result = cycle.run(snapshot);

    assertThat(result.nodes())
        .containsExactly(
            new NodeOutcome(
                "n1",
                1,
                0,
                1,
                ImmutableList.of(
                    new NodeOutcome.SharedGpuUse("n1-gpu0", GpuAmount.ofHundredths(75)))));
    assertThat(result.queues().get(0).allocated().gpus()).isEqualTo(0.75);
  }

  @Test
  void runningTheSameSnapshotTwiceGivesEqualResults() {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(node("n1").gpus(8).build(), node("n2").gpus(4).build()),
            List.of(queue("a").gpu(4, 1, -1).build(), queue("b").gpu(4, 2, -1).build()),
            List.of(
                job("x").queue("a").tasks(3, t -> t.gpus(2)).build(),
                job("y").queue("b").tasks(3, t -> t.gpus(2)).build()));

    assertThat(cycle.run(snapshot)).isEqualTo(cycle.run(snapshot));
  }
}
