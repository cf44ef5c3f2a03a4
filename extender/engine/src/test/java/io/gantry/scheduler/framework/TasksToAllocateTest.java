package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.SubGroupOrderPlugin;
import io.gantry.scheduler.plugins.TaskOrderPlugin;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §4.4 tasks-to-allocate: while a SubGroupSet's requirement is unmet, a PodSet
 * contributes {@code minMember − activeAllocated} pending tasks from the first {@code required}
 * members (subgroup order); once met, one task of the first member with pending tasks.
 */
class TasksToAllocateTest {
  record Case(String name, JobInfo job, List<String> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "gang: minMember tasks at once",
            Jobs.job("j").minMember(3).tasks(4, t -> t.gpus(1)).build(),
            List.of("t0", "t1", "t2")),
        new Case(
            "gang: task order picks which",
            Jobs.job("j")
                .minMember(2)
                .task(
                    Tasks.task("t0"),
                    Tasks.task("t1").taskPriority(1),
                    Tasks.task("t2").taskPriority(5))
                .build(),
            List.of("t2", "t1")),
        new Case(
            "gang partly running: only the missing tasks",
            Jobs.job("j")
                .minMember(3)
                .task(
                    Tasks.task("t0").running("n1"),
                    Tasks.task("t1"),
                    Tasks.task("t2"),
                    Tasks.task("t3"))
                .build(),
            List.of("t1", "t2")),
        new Case(
            "gang with fewer pending tasks than minMember: all of them",
            Jobs.job("j").minMember(3).tasks(2, t -> t).build(),
            List.of("t0", "t1")),
        new Case(
            "elastic: one task once minMember is met",
            Jobs.job("j")
                .minMember(2)
                .task(
                    Tasks.task("t0").running("n1"),
                    Tasks.task("t1").running("n1"),
                    Tasks.task("t2"),
                    Tasks.task("t3"))
                .build(),
            List.of("t2")),
        new Case(
            "pipelined tasks count toward minMember",
            Jobs.job("j")
                .minMember(2)
                .task(
                    Tasks.task("t0").running("n1"),
                    Tasks.task("t1").running("n1").status(TaskStatus.PIPELINED),
                    Tasks.task("t2"),
                    Tasks.task("t3"))
                .build(),
            List.of("t2")),
        new Case(
            "releasing tasks do not count toward minMember",
            Jobs.job("j")
                .minMember(2)
                .task(Tasks.task("t0").releasing("n1"), Tasks.task("t1"), Tasks.task("t2"))
                .build(),
            List.of("t1", "t2")),
        new Case(
            "gated tasks are not taken",
            Jobs.job("j").minMember(1).task(Tasks.task("t0").gated(), Tasks.task("t1")).build(),
            List.of("t1")),
        new Case(
            "minMember 0 PodSet: one task at a time",
            Jobs.job("j").minMember(0).tasks(3, t -> t).build(),
            List.of("t0")),
        new Case(
            "nothing pending: nothing to allocate",
            Jobs.job("j").minMember(1).task(Tasks.task("t0").running("n1")).build(),
            List.of()),
        new Case(
            "SubGroupSet, all children required: every PodSet's gang",
            Jobs.job("j")
                .subGroups(OptionalInt.empty(), Jobs.podSet("a", 2), Jobs.podSet("b", 1))
                .task(in("a", "a0"), in("a", "a1"), in("a", "a2"), in("b", "b0"), in("b", "b1"))
                .build(),
            List.of("a0", "a1", "b0")),
        new Case(
            "SubGroupSet with minSubGroup 1: the first child's gang only",
            Jobs.job("j")
                .subGroups(OptionalInt.of(1), Jobs.podSet("a", 2), Jobs.podSet("b", 1))
                .task(in("a", "a0"), in("a", "a1"), in("b", "b0"))
                .build(),
            List.of("a0", "a1")),
        new Case(
            "SubGroupSet with minSubGroup 1 met: an unsatisfied child still takes its gang",
            Jobs.job("j")
                .subGroups(OptionalInt.of(1), Jobs.podSet("a", 2), Jobs.podSet("b", 1))
                .task(in("a", "a0"), in("a", "a1"), in("b", "b0").running("n1"), in("b", "b1"))
                .build(),
            List.of("a0", "a1")),
        new Case(
            "SubGroupSet met: one task of the child with the lowest allocated/minMember",
            Jobs.job("j")
                .subGroups(OptionalInt.empty(), Jobs.podSet("a", 2), Jobs.podSet("b", 1))
                .task(
                    in("a", "a0").running("n1"),
                    in("a", "a1").running("n1"),
                    in("a", "a2").running("n1"),
                    in("a", "a3"),
                    in("b", "b0").running("n1"),
                    in("b", "b1"))
                .build(),
            List.of("b1")),
        new Case(
            "SubGroupSet: an optional PodSet (minMember 0) is satisfied and skipped",
            Jobs.job("j")
                .subGroups(OptionalInt.empty(), Jobs.podSet("a", 1), Jobs.podSet("opt", 0))
                .task(in("opt", "o0"), in("a", "a0"), in("a", "a1"))
                .build(),
            List.of("a0")),
        new Case(
            "nested SubGroupSets: each unmet level takes its required members",
            Jobs.job("j")
                .subGroups(
                    OptionalInt.empty(),
                    Jobs.subGroupSet(
                        "x", OptionalInt.of(1), Jobs.podSet("x1", 1), Jobs.podSet("x2", 1)),
                    Jobs.podSet("y", 1))
                .task(in("x2", "x2-0"), in("x1", "x1-0"), in("y", "y0"))
                .build(),
            List.of("x1-0", "y0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void picksTheNextPass(Case c) {
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(8).build()),
                List.of(Queues.queue("q").build()),
                List.of(c.job())),
            new SubGroupOrderPlugin(),
            new TaskOrderPlugin());

    List<TaskState> tasks = new TasksToAllocate(session.hooks()).of(session.job("ns/j"));

    assertThat(tasks).extracting(t -> t.info().name()).containsExactlyElementsOf(c.expected());
  }

  private static Tasks.Builder in(String podSet, String name) {
    return Tasks.task(name).podSet(podSet);
  }
}
