package io.gantry.scheduler.sim.report;

import static io.gantry.scheduler.sim.report.Results.amounts;
import static io.gantry.scheduler.sim.report.Results.job;
import static io.gantry.scheduler.sim.report.Results.node;
import static io.gantry.scheduler.sim.report.Results.queue;
import static io.gantry.scheduler.sim.report.Results.result;
import static io.gantry.scheduler.sim.report.Results.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.expect.Expectations;
import io.gantry.scheduler.sim.expect.JobExpectation;
import io.gantry.scheduler.sim.expect.NodeExpectation;
import io.gantry.scheduler.sim.expect.QueueExpectation;
import io.gantry.scheduler.sim.expect.TaskExpectation;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ExpectationCheckerTest {

  private static final long GIB = 1L << 30;

  private static final SimulationResult RESULT =
      result("checks")
          .tasks(
              task("default/train-a", "worker-0").status("Running").node("dgx-0"),
              task("default/train-a", "worker-1").status("Running").node("dgx-1"),
              task("default/train-b", "worker-0").message("queue team-b quota is used up"),
              task("default/infer", "pod-0")
                  .status("Running")
                  .node("dgx-1")
                  .groups("g0")
                  .portion(0.5),
              task("default/infer", "pod-1")
                  .status("Running")
                  .node("dgx-1")
                  .groups("g0")
                  .portion(0.5),
              task("default/infer", "pod-2")
                  .status("Running")
                  .node("dgx-1")
                  .groups("g1")
                  .portion(0.25),
              task("team-b/eval", "pod-0"),
              task("team-c/eval", "pod-0"))
          .jobs(
              job("default/train-a").status("Running").count("Running", 2).nodes("dgx-0", "dgx-1"),
              job("default/train-b")
                  .count("Pending", 1)
                  .message(
                      "no nodes with enough resources were found: 2 node(s) didn't have enough"
                          + " resources: GPUs."),
              job("default/infer").status("Running").count("Running", 3).nodes("dgx-1", "dgx-1"),
              job("team-b/eval").count("Pending", 1),
              job("team-c/eval").count("Pending", 1))
          .queues(
              queue(
                  "team-a",
                  amounts(4, 16000, 64 * GIB),
                  amounts(3.25, 16000, 64 * GIB),
                  amounts(4, -1, -1)))
          .nodes(node("dgx-0", 7, 0, 1), node("dgx-1", 5, 1, 2))
          .build();

  record Case(String name, Expectations expect, List<String> mismatches) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        // jobs
        new Case("job status holds", jobs("train-a", jobStatus("Running")), List.of()),
        new Case(
            "job status differs",
            jobs("train-b", jobStatus("Running")),
            List.of("expect.jobs.train-b.status: want Running, got Pending")),
        new Case(
            "job nodes compare as a set",
            jobs("train-a", jobNodes("dgx-1", "dgx-0", "dgx-1")),
            List.of()),
        new Case(
            "job nodes ignore a result's repeats", jobs("infer", jobNodes("dgx-1")), List.of()),
        new Case(
            "job nodes differ",
            jobs("train-a", jobNodes("dgx-0")),
            List.of("expect.jobs.train-a.nodes: want [dgx-0], got [dgx-0, dgx-1]")),
        new Case(
            "job task statuses hold, a zero count included",
            jobs("train-a", jobCounts(ImmutableSortedMap.of("Pending", 0, "Running", 2))),
            List.of()),
        new Case(
            "job task statuses compare the whole map",
            jobs("train-a", jobCounts(ImmutableSortedMap.of("Running", 1, "Pending", 1))),
            List.of(
                "expect.jobs.train-a.taskStatuses: want {Pending: 1, Running: 1}, got {Running:"
                    + " 2}")),
        new Case(
            "job message contains the text",
            jobs("train-b", jobMessage("didn't have enough resources")),
            List.of()),
        new Case(
            "job message lacks the text",
            jobs("train-b", jobMessage("quota")),
            List.of(
                "expect.jobs.train-b.messageContains: want \"quota\", got \"no nodes with enough"
                    + " resources were found: 2 node(s) didn't have enough resources: GPUs.\"")),
        new Case(
            "a missing job message contains nothing, not even the empty string",
            jobs("train-a", jobMessage("")),
            List.of("expect.jobs.train-a.messageContains: want \"\", got <none>")),
        new Case(
            "an absent job fails every expected field",
            jobs(
                "train-z",
                new JobExpectation(
                    Optional.of("Running"), Optional.of(List.of("dgx-0")), none(), none())),
            List.of(
                "expect.jobs.train-z.status: want Running, got <absent>",
                "expect.jobs.train-z.nodes: want [dgx-0], got <absent>")),
        new Case(
            "an empty expectation still wants the job to exist",
            jobs("train-z", new JobExpectation(none(), none(), none(), none())),
            List.of("expect.jobs.train-z: want <present>, got <absent>")),
        new Case(
            "a job name used in two namespaces is ambiguous",
            jobs("eval", jobStatus("Pending")),
            List.of("expect.jobs.eval: want one job, got 2 jobs: team-b/eval, team-c/eval")),
        // tasks
        new Case("task status holds", tasks("train-a/worker-1", taskStatus("Running")), List.of()),
        new Case(
            "task status differs",
            tasks("train-b/worker-0", taskStatus("Binding")),
            List.of("expect.tasks.train-b/worker-0.status: want Binding, got Pending")),
        new Case("task node holds", tasks("train-a/worker-1", taskNode("dgx-1")), List.of()),
        new Case(
            "task node of an unplaced task",
            tasks("train-b/worker-0", taskNode("dgx-0")),
            List.of("expect.tasks.train-b/worker-0.node: want dgx-0, got <none>")),
        new Case("gpu portion within 0.005", tasks("infer/pod-0", taskPortion(0.504)), List.of()),
        new Case(
            "gpu portion at exactly 0.005 still holds",
            tasks("infer/pod-0", taskPortion(0.505)),
            List.of()),
        new Case(
            "gpu portion differs",
            tasks("infer/pod-2", taskPortion(0.3)),
            List.of("expect.tasks.infer/pod-2.gpuPortion: want 0.3, got 0.25")),
        new Case(
            "gpu portion of a task holding none",
            tasks("train-a/worker-0", taskPortion(1)),
            List.of("expect.tasks.train-a/worker-0.gpuPortion: want 1, got <none>")),
        new Case(
            "tasks in the same group share a GPU",
            tasks("infer/pod-0", taskShares("infer/pod-1")),
            List.of()),
        new Case(
            "tasks in different groups do not",
            tasks("infer/pod-0", taskShares("infer/pod-2")),
            List.of(
                "expect.tasks.infer/pod-0.sharesGpuWith: want a GPU group with infer/pod-2,"
                    + " got [g0] vs infer/pod-2 [g1]")),
        new Case(
            "tasks with no groups share nothing",
            tasks("train-a/worker-0", taskShares("train-a/worker-1")),
            List.of(
                "expect.tasks.train-a/worker-0.sharesGpuWith: want a GPU group with"
                    + " train-a/worker-1, got [] vs train-a/worker-1 []")),
        new Case(
            "sharing with an absent task fails",
            tasks("infer/pod-0", taskShares("infer/pod-9")),
            List.of(
                "expect.tasks.infer/pod-0.sharesGpuWith: want a GPU group with infer/pod-9,"
                    + " got [g0] vs infer/pod-9 <absent>")),
        new Case(
            "task message contains the text",
            tasks("train-b/worker-0", taskMessage("quota is used up")),
            List.of()),
        new Case(
            "task message is the task's own, not the job's",
            tasks("train-b/worker-0", taskMessage("no nodes with")),
            List.of(
                "expect.tasks.train-b/worker-0.messageContains: want \"no nodes with\","
                    + " got \"queue team-b quota is used up\"")),
        new Case(
            "a task key under a job name used in two namespaces is ambiguous",
            tasks("eval/pod-0", taskStatus("Pending")),
            List.of(
                "expect.tasks.eval/pod-0: want one task,"
                    + " got 2 tasks: team-b/eval/pod-0, team-c/eval/pod-0")),
        new Case(
            "an absent task",
            tasks("train-a/worker-2", taskStatus("Running")),
            List.of("expect.tasks.train-a/worker-2.status: want Running, got <absent>")),
        // queues
        new Case(
            "queue amounts hold within tolerance",
            queues(
                "team-a",
                new QueueExpectation(
                    Optional.of(
                        ImmutableSortedMap.of("gpu", 4.004, "cpu", 16000.5, "memory", 64.0 * GIB)),
                    Optional.of(ImmutableSortedMap.of("gpu", 3.25)))),
            List.of()),
        new Case(
            "queue amounts differ, in resource order",
            queues(
                "team-a",
                new QueueExpectation(
                    Optional.of(ImmutableSortedMap.of("gpu", 3.0, "memory", 32.0 * GIB)),
                    Optional.of(ImmutableSortedMap.of("gpu", 4.0, "cpu", 16001.0)))),
            List.of(
                "expect.queues.team-a.fairShare.gpu: want 3, got 4",
                "expect.queues.team-a.fairShare.memory: want 34359738368, got 68719476736",
                "expect.queues.team-a.allocated.cpu: want 16001, got 16000",
                "expect.queues.team-a.allocated.gpu: want 4, got 3.25")),
        new Case(
            "an absent queue",
            queues(
                "team-z",
                new QueueExpectation(Optional.of(ImmutableSortedMap.of("gpu", 1.0)), none())),
            List.of("expect.queues.team-z.fairShare.gpu: want 1, got <absent>")),
        // nodes
        new Case(
            "node GPU counts hold",
            nodes("dgx-1", new NodeExpectation(OptionalInt.of(5), OptionalInt.of(1))),
            List.of()),
        new Case(
            "node GPU counts differ",
            nodes("dgx-0", new NodeExpectation(OptionalInt.of(8), OptionalInt.of(1))),
            List.of(
                "expect.nodes.dgx-0.idleGpus: want 8, got 7",
                "expect.nodes.dgx-0.releasingGpus: want 1, got 0")),
        new Case(
            "an absent node",
            nodes("dgx-9", new NodeExpectation(OptionalInt.empty(), OptionalInt.of(0))),
            List.of("expect.nodes.dgx-9.releasingGpus: want 0, got <absent>")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void checks(Case c) {
    assertThat(ExpectationChecker.check(c.expect(), RESULT))
        .extracting(Mismatch::toString)
        .containsExactlyElementsOf(c.mismatches());
  }

  @Test
  void reportsJobsTasksQueuesNodesInThatOrderWithKeysSorted() {
    Expectations expect =
        new Expectations(
            ImmutableSortedMap.of("train-b", jobStatus("Running"), "train-a", jobStatus("Pending")),
            ImmutableSortedMap.of("train-b/worker-0", taskNode("dgx-0")),
            ImmutableSortedMap.of(
                "team-a",
                new QueueExpectation(Optional.of(ImmutableSortedMap.of("gpu", 1.0)), none())),
            ImmutableSortedMap.of(
                "dgx-1", new NodeExpectation(OptionalInt.of(0), OptionalInt.empty()),
                "dgx-0", new NodeExpectation(OptionalInt.of(0), OptionalInt.empty())));

    assertThat(ExpectationChecker.check(expect, RESULT))
        .extracting(Mismatch::toString)
        .containsExactly(
            "expect.jobs.train-a.status: want Pending, got Running",
            "expect.jobs.train-b.status: want Running, got Pending",
            "expect.tasks.train-b/worker-0.node: want dgx-0, got <none>",
            "expect.queues.team-a.fairShare.gpu: want 1, got 4",
            "expect.nodes.dgx-0.idleGpus: want 0, got 7",
            "expect.nodes.dgx-1.idleGpus: want 0, got 5");
  }

  @Test
  void noExpectationsNoMismatches() {
    assertThat(ExpectationChecker.check(Expectations.NONE, RESULT)).isEmpty();
  }

  @Test
  void mismatchCarriesItsParts() {
    assertThat(ExpectationChecker.check(jobs("train-b", jobStatus("Running")), RESULT))
        .containsExactly(new Mismatch("expect.jobs.train-b.status", "Running", "Pending"));
  }

  @Test
  void anUnknownQueueResourceIsRejectedWhereTheExpectationIsMade() {
    assertThatThrownBy(
            () -> new QueueExpectation(Optional.of(ImmutableSortedMap.of("gpus", 1.0)), none()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fairShare.gpus: unknown queue resource, expected one of [gpu, cpu, memory]");
  }

  private static <T> Optional<T> none() {
    return Optional.empty();
  }

  private static JobExpectation jobStatus(String status) {
    return new JobExpectation(Optional.of(status), none(), none(), none());
  }

  private static JobExpectation jobNodes(String... nodes) {
    return new JobExpectation(none(), Optional.of(List.of(nodes)), none(), none());
  }

  private static JobExpectation jobCounts(ImmutableSortedMap<String, Integer> counts) {
    return new JobExpectation(none(), none(), Optional.of(counts), none());
  }

  private static JobExpectation jobMessage(String text) {
    return new JobExpectation(none(), none(), none(), Optional.of(text));
  }

  private static TaskExpectation taskStatus(String status) {
    return new TaskExpectation(Optional.of(status), none(), OptionalDouble.empty(), none(), none());
  }

  private static TaskExpectation taskNode(String node) {
    return new TaskExpectation(none(), Optional.of(node), OptionalDouble.empty(), none(), none());
  }

  private static TaskExpectation taskPortion(double portion) {
    return new TaskExpectation(none(), none(), OptionalDouble.of(portion), none(), none());
  }

  private static TaskExpectation taskShares(String other) {
    return new TaskExpectation(none(), none(), OptionalDouble.empty(), Optional.of(other), none());
  }

  private static TaskExpectation taskMessage(String text) {
    return new TaskExpectation(none(), none(), OptionalDouble.empty(), none(), Optional.of(text));
  }

  private static Expectations jobs(String key, JobExpectation e) {
    return new Expectations(
        ImmutableSortedMap.of(key, e),
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of());
  }

  private static Expectations tasks(String key, TaskExpectation e) {
    return new Expectations(
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(key, e),
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of());
  }

  private static Expectations queues(String key, QueueExpectation e) {
    return new Expectations(
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(key, e),
        ImmutableSortedMap.of());
  }

  private static Expectations nodes(String key, NodeExpectation e) {
    return new Expectations(
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(),
        ImmutableSortedMap.of(key, e));
  }
}
