package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Hierarchical PodGroups in allocate (kai-reference §4.4, §9): readiness counts ready children
 * against minSubGroup, optional subgroups never hold a job back, and children beyond the threshold
 * are added afterwards, one pod per pass.
 */
class HierarchicalPodGroupTest {
  private static final List<QueueInfo> QUEUES = List.of(Queues.queue("q").gpu(16, 1, -1).build());

  private static CycleResult allocate(int nodeGpus, JobInfo job) {
    return Cycles.run(
        Snapshots.of(List.of(Nodes.node("n1").gpus(nodeGpus).build()), QUEUES, List.of(job)),
        "allocate");
  }

  @Test
  void aJobIsReadyWhenMinSubGroupChildrenAreThoughAnotherLacksPods() {
    JobInfo job =
        Jobs.job("j")
            .subGroups(OptionalInt.of(1), Jobs.podSet("a", 2), Jobs.podSet("b", 2))
            .task(Tasks.task("a0").gpus(1).podSet("a"), Tasks.task("a1").gpus(1).podSet("a"))
            .build();

    CycleResult r = allocate(8, job);

    assertThat(Cycles.status(r, "ns/j/a0")).isEqualTo(TaskStatus.BINDING);
    assertThat(Cycles.status(r, "ns/j/a1")).isEqualTo(TaskStatus.BINDING);
    assertThat(Cycles.events(r, "NotReady")).isEmpty();
  }

  @Test
  void aJobMissingPodsOfMoreChildrenThanItMaySpareIsNotReady() {
    JobInfo job =
        Jobs.job("j")
            .subGroups(OptionalInt.of(2), Jobs.podSet("a", 2), Jobs.podSet("b", 2))
            .task(Tasks.task("a0").gpus(1).podSet("a"), Tasks.task("a1").gpus(1).podSet("a"))
            .build();

    CycleResult r = allocate(8, job);

    assertThat(r.decisions()).isEmpty();
    assertThat(Cycles.job(r, "ns/j").fitMessage())
        .hasValue(
            "NotReady: Job is not ready for scheduling. Waiting for 2 pods, currently 0 exist, 0"
                + " are gated.");
  }

  @Test
  void beyondMinSubGroupChildrenGrowOnePodPerPassAndAnOptionalOneLast() {
    JobInfo job =
        Jobs.job("j")
            .subGroups(
                OptionalInt.of(1), Jobs.podSet("a", 2), Jobs.podSet("b", 2), Jobs.podSet("c", 0))
            .task(
                Tasks.task("a0").gpus(1).podSet("a"),
                Tasks.task("a1").gpus(1).podSet("a"),
                Tasks.task("b0").gpus(1).podSet("b"),
                Tasks.task("b1").gpus(1).podSet("b"),
                Tasks.task("c0").gpus(1).podSet("c"))
            .build();

    // room for four pods: a's gang, then b's gang as the elastic growth, c (optional) left out
    CycleResult r = allocate(4, job);

    assertThat(Cycles.status(r, "ns/j/a0")).isEqualTo(TaskStatus.BINDING);
    assertThat(Cycles.status(r, "ns/j/a1")).isEqualTo(TaskStatus.BINDING);
    assertThat(Cycles.status(r, "ns/j/b0")).isEqualTo(TaskStatus.BINDING);
    assertThat(Cycles.status(r, "ns/j/b1")).isEqualTo(TaskStatus.BINDING);
    assertThat(Cycles.status(r, "ns/j/c0")).isEqualTo(TaskStatus.PENDING);
  }
}
