package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §4.5 JobOrderFn 2: jobs with a PodSet below minMember first, then jobs exactly at
 * minMember, then jobs above it. Allocated means active-allocated (pipelined counts).
 */
class ElasticPluginTest {
  /** Jobs a and b: minMember 2, {@code runningA}/{@code runningB} running, two pending each. */
  record Case(String name, int runningA, int runningB, int expectedSign) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("below minMember before at minMember", 1, 2, -1),
        new Case("below minMember before above minMember", 0, 3, -1),
        new Case("at minMember before above minMember", 2, 3, -1),
        new Case("above minMember after at minMember", 4, 2, 1),
        new Case("two jobs below minMember are equal", 0, 1, 0),
        new Case("two jobs above minMember are equal", 3, 4, 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void ordersByProgressAgainstMinMember(Case c) {
    Session session =
        session(
            List.of(
                job("a", 2, c.runningA(), TaskStatus.RUNNING),
                job("b", 2, c.runningB(), TaskStatus.RUNNING)));
    ElasticPlugin plugin = new ElasticPlugin();

    assertThat(Integer.signum(plugin.compareJobs(session.job("ns/a"), session.job("ns/b"))))
        .isEqualTo(c.expectedSign());
    assertThat(Integer.signum(plugin.compareJobs(session.job("ns/b"), session.job("ns/a"))))
        .isEqualTo(-c.expectedSign());
  }

  @Test
  void pipelinedTasksCountAsAllocated() {
    Session session =
        session(
            List.of(
                job("pipelined", 2, 2, TaskStatus.PIPELINED),
                job("below", 2, 1, TaskStatus.RUNNING)));

    assertThat(
            new ElasticPlugin().compareJobs(session.job("ns/below"), session.job("ns/pipelined")))
        .isNegative();
  }

  @Test
  void anyPodSetBelowItsMinMemberPutsTheJobFirst() {
    JobInfo mixed =
        Jobs.job("mixed")
            .subGroups(OptionalInt.empty(), Jobs.podSet("a", 1), Jobs.podSet("b", 2))
            .task(
                Tasks.task("a0").podSet("a").gpus(1).running("n1"),
                Tasks.task("a1").podSet("a").gpus(1).running("n1"),
                Tasks.task("a2").podSet("a").gpus(1).running("n1"),
                Tasks.task("b0").podSet("b").gpus(1).running("n1"),
                Tasks.task("b1").podSet("b").gpus(1))
            .build();
    Session session = session(List.of(mixed, job("exact", 2, 2, TaskStatus.RUNNING)));

    assertThat(new ElasticPlugin().compareJobs(session.job("ns/mixed"), session.job("ns/exact")))
        .isNegative();
  }

  @Test
  void minMemberZeroWithNothingAllocatedIsAtMinMember() {
    Session session =
        session(
            List.of(
                job("zero", 0, 0, TaskStatus.RUNNING),
                job("grown", 0, 1, TaskStatus.RUNNING),
                job("below", 1, 0, TaskStatus.RUNNING)));
    List<JobState> jobs = new ArrayList<>(session.jobs());
    jobs.sort(new ElasticPlugin()::compareJobs);

    assertThat(jobs).extracting(JobState::id).containsExactly("ns/below", "ns/zero", "ns/grown");
  }

  private static JobInfo job(String name, int minMember, int placed, TaskStatus status) {
    Jobs.Builder b = Jobs.job(name).minMember(minMember);
    for (int i = 0; i < placed; i++) {
      b.task(Tasks.task("p" + i).gpus(1).running("n1").status(status));
    }
    b.task(Tasks.task("w0").gpus(1), Tasks.task("w1").gpus(1));
    return b.build();
  }

  private static Session session(List<JobInfo> jobs) {
    return Sessions.open(
        Snapshots.of(
            List.of(Nodes.node("n1").gpus(64).build()), List.of(Queues.queue("q").build()), jobs));
  }
}
