package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The elastic eviction order (kai-reference §10.1): one surplus pod at a time, newest first, or a
 * whole surplus child SubGroup, before the gang core; then the whole gang.
 */
class TasksToEvictTest {

  private static Session session(JobInfo job) {
    return Sessions.openDefault(
        Snapshots.of(
            List.of(Nodes.node("n1").gpus(8).build()),
            List.of(Queues.queue("q").build()),
            List.of(job)));
  }

  private static List<String> drain(Session s, String jobId) {
    JobState job = s.job(jobId);
    Set<TaskState> remaining = new LinkedHashSet<>(job.tasks());
    TasksToEvict tasksToEvict = new TasksToEvict(s.hooks());
    List<String> batches = new java.util.ArrayList<>();
    while (!remaining.isEmpty()) {
      List<TaskState> batch = tasksToEvict.next(job, remaining);
      batch.forEach(remaining::remove);
      batches.add(String.join(",", batch.stream().map(t -> t.info().name()).toList()));
    }
    return batches;
  }

  @Test
  void surplusPodsGoOneAtATimeNewestFirstThenTheGang() {
    Session s =
        session(
            Jobs.job("e").queue("q").minMember(2).tasks(4, t -> t.gpus(1).running("n1")).build());

    assertThat(drain(s, "ns/e")).containsExactly("t3", "t2", "t0,t1");
  }

  @Test
  void aJobAtItsMinimumIsTakenWhole() {
    Session s =
        session(
            Jobs.job("g").queue("q").minMember(3).tasks(3, t -> t.gpus(1).running("n1")).build());

    assertThat(drain(s, "ns/g")).containsExactly("t0,t1,t2");
  }

  @Test
  void aSurplusChildSubGroupGoesWholeBeforeTheCore() {
    // one of two children required: the second satisfied child is surplus
    Session s =
        session(
            Jobs.job("h")
                .queue("q")
                .subGroups(OptionalInt.of(1), Jobs.podSet("a", 2), Jobs.podSet("b", 2))
                .task(
                    Tasks.task("a0").podSet("a").gpus(1).running("n1"),
                    Tasks.task("a1").podSet("a").gpus(1).running("n1"),
                    Tasks.task("b0").podSet("b").gpus(1).running("n1"),
                    Tasks.task("b1").podSet("b").gpus(1).running("n1"))
                .build());

    assertThat(drain(s, "ns/h")).containsExactly("b0,b1", "a0,a1");
  }

  @Test
  void higherTaskPriorityIsEvictedLast() {
    Session s =
        session(
            Jobs.job("e")
                .queue("q")
                .minMember(1)
                .task(
                    Tasks.task("leader").taskPriority(10).gpus(1).running("n1"),
                    Tasks.task("w0").gpus(1).running("n1"),
                    Tasks.task("w1").gpus(1).running("n1"))
                .build());

    assertThat(drain(s, "ns/e")).containsExactly("w1", "w0", "leader");
  }
}
