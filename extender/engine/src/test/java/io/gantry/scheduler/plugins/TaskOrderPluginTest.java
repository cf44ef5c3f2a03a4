package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
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

/** Pods with the {@code kai.scheduler/task-priority} label first, higher value first. */
class TaskOrderPluginTest {
  record Case(String name, OptionalInt priorityA, OptionalInt priorityB, int expectedSign) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("labelled before unlabelled", OptionalInt.of(0), OptionalInt.empty(), -1),
        new Case(
            "unlabelled after labelled even with a negative value",
            OptionalInt.empty(),
            OptionalInt.of(-7),
            1),
        new Case("higher value first", OptionalInt.of(10), OptionalInt.of(5), -1),
        new Case("lower value last", OptionalInt.of(1), OptionalInt.of(2), 1),
        new Case("equal values are equal", OptionalInt.of(3), OptionalInt.of(3), 0),
        new Case("both unlabelled are equal", OptionalInt.empty(), OptionalInt.empty(), 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void ordersTasks(Case c) {
    Session session = session(task("a", c.priorityA()), task("b", c.priorityB()));
    TaskState a = session.task("ns/j/a");
    TaskState b = session.task("ns/j/b");
    TaskOrderPlugin plugin = new TaskOrderPlugin();

    assertThat(Integer.signum(plugin.compareTasks(a, b))).isEqualTo(c.expectedSign());
    assertThat(Integer.signum(plugin.compareTasks(b, a))).isEqualTo(-c.expectedSign());
  }

  @Test
  void tiesFallBackToPodCreationOrder() {
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("j")
                        .task(
                            task("plain-1", OptionalInt.empty()),
                            task("low", OptionalInt.of(1)),
                            task("plain-2", OptionalInt.empty()),
                            task("high", OptionalInt.of(9)),
                            task("low-2", OptionalInt.of(1)))
                        .build())),
            new TaskOrderPlugin());
    List<TaskState> tasks = new ArrayList<>(session.job("ns/j").tasks());

    tasks.sort(session.hooks()::compareTasks);

    assertThat(tasks)
        .extracting(t -> t.info().name())
        .containsExactly("high", "low", "low-2", "plain-1", "plain-2");
  }

  private static Tasks.Builder task(String name, OptionalInt priority) {
    Tasks.Builder b = Tasks.task(name);
    priority.ifPresent(b::taskPriority);
    return b;
  }

  private static Session session(Tasks.Builder a, Tasks.Builder b) {
    return Sessions.open(
        Snapshots.of(
            List.of(Nodes.node("n1").build()),
            List.of(Queues.queue("q").build()),
            List.of(Jobs.job("j").task(a, b).build())));
  }
}
