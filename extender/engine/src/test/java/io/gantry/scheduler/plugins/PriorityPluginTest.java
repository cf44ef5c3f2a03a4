package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** kai-reference §4.5 JobOrderFn 1: higher job priority first. */
class PriorityPluginTest {
  record Case(String name, int priorityA, int priorityB, int expectedSign) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("higher priority goes first", 100, 50, -1),
        new Case("lower priority goes last", 50, 125, 1),
        new Case("equal priority leaves the decision to the next plugin", 75, 75, 0),
        new Case("negative priorities compare as numbers", -5, -10, -1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void comparesByPriority(Case c) {
    Session session = session(c.priorityA(), c.priorityB());
    JobState a = session.job("ns/a");
    JobState b = session.job("ns/b");

    PriorityPlugin plugin = new PriorityPlugin();

    assertThat(Integer.signum(plugin.compareJobs(a, b))).isEqualTo(c.expectedSign());
    assertThat(Integer.signum(plugin.compareJobs(b, a))).isEqualTo(-c.expectedSign());
  }

  @Test
  void sortsJobsByPriorityThenCreationOrder() {
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").build()),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("low").priority(50).build(),
                    Jobs.job("high-old").priority(100).build(),
                    Jobs.job("mid").priority(75).build(),
                    Jobs.job("high-new").priority(100).build())),
            new PriorityPlugin());

    List<JobState> jobs = new ArrayList<>(session.jobs());
    jobs.sort(session.hooks()::compareJobs);

    assertThat(jobs)
        .extracting(JobState::id)
        .containsExactly("ns/high-old", "ns/high-new", "ns/mid", "ns/low");
  }

  private static Session session(int priorityA, int priorityB) {
    return Sessions.open(
        Snapshots.of(
            List.of(Nodes.node("n1").build()),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("a").priority(priorityA).build(),
                Jobs.job("b").priority(priorityB).build())));
  }
}
