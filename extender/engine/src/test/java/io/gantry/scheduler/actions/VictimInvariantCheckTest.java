package io.gantry.scheduler.actions;

import static io.gantry.scheduler.model.placement.TaintEffect.NO_SCHEDULE;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The check before a victim search: some node must pass what no eviction changes and could hold the
 * task were it empty.
 */
class VictimInvariantCheckTest {
  private static Session session(JobInfo job) {
    return Sessions.openDefault(
        Snapshots.of(
            List.of(
                Nodes.node("n1").gpus(4).taint("dedicated", "ml", NO_SCHEDULE).build(),
                Nodes.node("n2").gpus(2).label("zone", "z2").build(),
                Nodes.node("n3").gpus(8).cordoned().build()),
            List.of(Queues.queue("q").build()),
            List.of(job)));
  }

  private static boolean passes(Session s) {
    JobState job = s.job("ns/j");
    return VictimInvariantCheck.passes(s, job, new TasksToAllocate(s.hooks()).of(job));
  }

  @Test
  void aTaskSomeNodeCouldHoldIfEmptiedPasses() {
    assertThat(passes(session(Jobs.job("j").queue("q").task(Tasks.task("t").gpus(2)).build())))
        .isTrue();
  }

  @Test
  void aTaskNoNodeCouldEverHoldIsRecordedOnceWithTheReasonPerNode() {
    Session s = session(Jobs.job("j").queue("q").task(Tasks.task("t").gpus(3)).build());

    assertThat(passes(s)).isFalse();
    assertThat(passes(s)).isFalse();
    assertThat(s.job("ns/j").fitErrors()).hasSize(1);
    assertThat(FitMessages.jobMessage(s.job("ns/j").fitErrors()))
        .contains(
            "PodSchedulingErrors: Resources were not found for pod ns/j-t due to: no eviction can"
                + " make room for it: no nodes with enough resources were found: 1 node(s) didn't"
                + " have enough allocatable resources: GPUs. \n1 node(s) had untolerated taint"
                + " {dedicated: ml}. \n1 node(s) were unschedulable.");
  }

  @Test
  void nodeAffinityIsVictimInvariant() {
    Session s =
        session(
            Jobs.job("j")
                .queue("q")
                .task(Tasks.task("t").gpus(1).nodeSelector("zone", "z9"))
                .build());

    assertThat(passes(s)).isFalse();
  }
}
