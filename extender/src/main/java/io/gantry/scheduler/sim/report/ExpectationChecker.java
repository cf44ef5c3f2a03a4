package io.gantry.scheduler.sim.report;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import com.google.common.collect.Maps;
import com.google.common.collect.Sets;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.Amounts;
import io.gantry.scheduler.sim.SimulationResult.JobResult;
import io.gantry.scheduler.sim.SimulationResult.NodeResult;
import io.gantry.scheduler.sim.SimulationResult.QueueResult;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Compares a scenario's {@code expect:} block with what the simulation ended with, for {@code
 * gantry simulate --check}. Mismatches come in a fixed order: jobs, tasks, queues, nodes; keys
 * sorted within each; fields in the order the expectation records declare them.
 */
public final class ExpectationChecker {
  static final double GPU_TOLERANCE = 0.005;
  static final double CPU_MEMORY_TOLERANCE = 0.5;
  /**
   * Added to a tolerance so that a difference of exactly the tolerance in decimal (0.505 against
   * 0.5) is within it despite binary rounding; far below any amount a scenario can express.
   */
  private static final double ROUNDING_SLACK = 1e-9;

  private static final String NONE = "<none>";

  private ExpectationChecker() {}

  /** Every expectation that does not hold; empty when all do. */
  public static List<Mismatch> check(Expectations expect, SimulationResult r) {
    ResultLookup<JobResult> jobs =
        new ResultLookup<>("job", r.jobs(), JobResult::jobName, JobResult::job);
    ResultLookup<TaskResult> tasks =
        new ResultLookup<>(
            "task", r.tasks(), ExpectationChecker::taskKey, t -> t.job() + "/" + t.task());
    ResultLookup<QueueResult> queues =
        new ResultLookup<>("queue", r.queues(), QueueResult::queue, QueueResult::queue);
    ResultLookup<NodeResult> nodes =
        new ResultLookup<>("node", r.nodes(), NodeResult::node, NodeResult::node);

    List<Mismatch> out = new ArrayList<>();
    expect.jobs().forEach((key, e) -> out.addAll(jobs.check("expect.jobs." + key, key, job(e))));
    expect
        .tasks()
        .forEach((key, e) -> out.addAll(tasks.check("expect.tasks." + key, key, task(e, tasks))));
    expect
        .queues()
        .forEach((key, e) -> out.addAll(queues.check("expect.queues." + key, key, queue(e))));
    expect.nodes().forEach((key, e) -> out.addAll(nodes.check("expect.nodes." + key, key, node(e))));
    return ImmutableList.copyOf(out);
  }

  /** The key an {@code expect.tasks} entry names a task by: {@code <job name>/<task name>}. */
  static String taskKey(TaskResult t) {
    return t.jobName() + "/" + t.task();
  }

  private static List<FieldCheck<JobResult>> job(JobExpectation e) {
    List<FieldCheck<JobResult>> checks = new ArrayList<>();
    e.status()
        .ifPresent(
            want -> checks.add(new FieldCheck<>("status", want, j -> j.status().equals(want), JobResult::status)));
    e.nodes()
        .ifPresent(
            want -> {
              ImmutableSortedSet<String> wanted = ImmutableSortedSet.copyOf(want);
              Function<JobResult, ImmutableSortedSet<String>> used =
                  j -> ImmutableSortedSet.copyOf(j.nodes());
              checks.add(
                  new FieldCheck<>(
                      "nodes", wanted.toString(), j -> used.apply(j).equals(wanted), j -> used.apply(j).toString()));
            });
    e.taskStatuses()
        .ifPresent(
            want ->
                checks.add(
                    new FieldCheck<>(
                        "taskStatuses",
                        counts(want),
                        j -> nonZero(j.taskStatuses()).equals(nonZero(want)),
                        j -> counts(j.taskStatuses()))));
    e.messageContains().ifPresent(want -> checks.add(messageContains(want, JobResult::message)));
    return checks;
  }

  private static List<FieldCheck<TaskResult>> task(
      TaskExpectation e, ResultLookup<TaskResult> tasks) {
    List<FieldCheck<TaskResult>> checks = new ArrayList<>();
    e.status()
        .ifPresent(
            want -> checks.add(new FieldCheck<>("status", want, t -> t.status().equals(want), TaskResult::status)));
    e.node()
        .ifPresent(
            want ->
                checks.add(
                    new FieldCheck<>(
                        "node", want, t -> t.node().equals(Optional.of(want)), t -> t.node().orElse(NONE))));
    if (e.gpuPortion().isPresent()) {
      double want = e.gpuPortion().getAsDouble();
      checks.add(
          new FieldCheck<>(
              "gpuPortion",
              Precision.EXACT.format(want),
              t -> t.gpuPortion().isPresent() && within(want, t.gpuPortion().getAsDouble(), GPU_TOLERANCE),
              t -> gpu(t.gpuPortion())));
    }
    e.sharesGpuWith().ifPresent(other -> checks.add(sharesGpuWith(other, tasks)));
    e.messageContains().ifPresent(want -> checks.add(messageContains(want, TaskResult::message)));
    return checks;
  }

  /** Holds when both tasks are in a shared GPU group, and at least one group is the same. */
  private static FieldCheck<TaskResult> sharesGpuWith(String other, ResultLookup<TaskResult> tasks) {
    return new FieldCheck<>(
        "sharesGpuWith",
        "a GPU group with " + other,
        t ->
            tasks
                .unique(other)
                .map(o -> !Sets.intersection(groups(t), groups(o)).isEmpty())
                .orElse(false),
        t -> t.gpuGroups() + " vs " + other + " " + tasks.show(other, o -> o.gpuGroups().toString()));
  }

  private static ImmutableSortedSet<String> groups(TaskResult t) {
    return ImmutableSortedSet.copyOf(t.gpuGroups());
  }

  private static List<FieldCheck<QueueResult>> queue(QueueExpectation e) {
    List<FieldCheck<QueueResult>> checks = new ArrayList<>();
    e.fairShare().ifPresent(want -> addAmounts(checks, "fairShare", want, QueueResult::fairShare));
    e.allocated().ifPresent(want -> addAmounts(checks, "allocated", want, QueueResult::allocated));
    return checks;
  }

  private static void addAmounts(
      List<FieldCheck<QueueResult>> checks,
      String field,
      ImmutableSortedMap<String, Double> want,
      Function<QueueResult, Amounts> amounts) {
    want.forEach(
        (resource, value) -> {
          boolean gpu = resource.equals("gpu");
          double tolerance = gpu ? GPU_TOLERANCE : CPU_MEMORY_TOLERANCE;
          Precision precision = gpu ? Precision.GPU : Precision.WHOLE;
          checks.add(
              new FieldCheck<>(
                  field + "." + resource,
                  Precision.EXACT.format(value),
                  q -> within(value, amounts.apply(q).get(resource), tolerance),
                  q -> precision.format(amounts.apply(q).get(resource))));
        });
  }

  private static List<FieldCheck<NodeResult>> node(NodeExpectation e) {
    List<FieldCheck<NodeResult>> checks = new ArrayList<>();
    addCount(checks, "idleGpus", e.idleGpus(), NodeResult::idleGpus);
    addCount(checks, "releasingGpus", e.releasingGpus(), NodeResult::releasingGpus);
    return checks;
  }

  private static void addCount(
      List<FieldCheck<NodeResult>> checks,
      String field,
      OptionalInt want,
      Function<NodeResult, Integer> got) {
    want.ifPresent(
        w ->
            checks.add(
                new FieldCheck<>(field, Integer.toString(w), n -> got.apply(n) == w, n -> Integer.toString(got.apply(n)))));
  }

  /** A missing message contains nothing, not even the empty string: there is no message to read. */
  private static <T> FieldCheck<T> messageContains(String want, Function<T, Optional<String>> message) {
    return new FieldCheck<>(
        "messageContains",
        quote(want),
        o -> message.apply(o).map(m -> m.contains(want)).orElse(false),
        o -> message.apply(o).map(ExpectationChecker::quote).orElse(NONE));
  }

  private static boolean within(double want, double got, double tolerance) {
    return Math.abs(want - got) <= tolerance + ROUNDING_SLACK;
  }

  private static String gpu(OptionalDouble value) {
    return value.isPresent() ? Precision.GPU.format(value.getAsDouble()) : NONE;
  }

  /**
   * Zero counts are dropped before comparing, so {@code {Running: 4, Pending: 0}} matches a job
   * whose four tasks all run; the result never lists a status no task has.
   */
  private static ImmutableSortedMap<String, Integer> nonZero(Map<String, Integer> counts) {
    return ImmutableSortedMap.copyOf(Maps.filterValues(counts, n -> n != 0));
  }

  /** Counts as the expect block writes them: {@code {Pending: 1, Running: 3}}. */
  private static String counts(ImmutableSortedMap<String, Integer> counts) {
    List<String> entries = counts.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList();
    return "{" + String.join(", ", entries) + "}";
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }
}
