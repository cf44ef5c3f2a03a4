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
import io.gantry.scheduler.sim.expect.Expectations;
import io.gantry.scheduler.sim.expect.JobExpectation;
import io.gantry.scheduler.sim.expect.NodeExpectation;
import io.gantry.scheduler.sim.expect.QueueExpectation;
import io.gantry.scheduler.sim.expect.TaskExpectation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.ToIntFunction;

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
    expect
        .nodes()
        .forEach((key, e) -> out.addAll(nodes.check("expect.nodes." + key, key, node(e))));
    return ImmutableList.copyOf(out);
  }

  /** The key an {@code expect.tasks} entry names a task by: {@code <job name>/<task name>}. */
  static String taskKey(TaskResult t) {
    return t.jobName() + "/" + t.task();
  }

  private static List<FieldCheck<JobResult>> job(JobExpectation e) {
    return present(
        List.of(
            e.status().map(want -> equal("status", want, JobResult::status)),
            e.nodes().map(ExpectationChecker::nodeSet),
            e.taskStatuses().map(ExpectationChecker::taskStatuses),
            e.messageContains().map(want -> messageContains(want, JobResult::message))));
  }

  private static FieldCheck<JobResult> nodeSet(List<String> want) {
    ImmutableSortedSet<String> wanted = ImmutableSortedSet.copyOf(want);
    Function<JobResult, ImmutableSortedSet<String>> used =
        j -> ImmutableSortedSet.copyOf(j.nodes());
    return new FieldCheck<>(
        "nodes",
        wanted.toString(),
        j -> used.apply(j).equals(wanted),
        j -> used.apply(j).toString());
  }

  private static FieldCheck<JobResult> taskStatuses(ImmutableSortedMap<String, Integer> want) {
    return new FieldCheck<>(
        "taskStatuses",
        counts(want),
        j -> nonZero(j.taskStatuses()).equals(nonZero(want)),
        j -> counts(j.taskStatuses()));
  }

  private static List<FieldCheck<TaskResult>> task(
      TaskExpectation e, ResultLookup<TaskResult> tasks) {
    return present(
        List.of(
            e.status().map(want -> equal("status", want, TaskResult::status)),
            e.node().map(ExpectationChecker::taskNode),
            boxed(e.gpuPortion()).map(ExpectationChecker::gpuPortion),
            e.sharesGpuWith().map(other -> sharesGpuWith(other, tasks)),
            e.messageContains().map(want -> messageContains(want, TaskResult::message)),
            e.gpuDevices()
                .map(
                    want -> equal("gpuDevices", want.toString(), t -> t.gpuDevices().toString()))));
  }

  private static FieldCheck<TaskResult> taskNode(String want) {
    return new FieldCheck<>(
        "node", want, t -> t.node().equals(Optional.of(want)), t -> t.node().orElse(NONE));
  }

  private static FieldCheck<TaskResult> gpuPortion(double want) {
    return new FieldCheck<>(
        "gpuPortion",
        Precision.EXACT.format(want),
        t ->
            t.gpuPortion().isPresent() && within(want, t.gpuPortion().getAsDouble(), GPU_TOLERANCE),
        t -> gpu(t.gpuPortion()));
  }

  /** Holds when both tasks are in a shared GPU group, and at least one group is the same. */
  private static FieldCheck<TaskResult> sharesGpuWith(
      String other, ResultLookup<TaskResult> tasks) {
    return new FieldCheck<>(
        "sharesGpuWith",
        "a GPU group with " + other,
        t ->
            tasks
                .unique(other)
                .map(o -> !Sets.intersection(groups(t), groups(o)).isEmpty())
                .orElse(false),
        t ->
            t.gpuGroups()
                + " vs "
                + other
                + " "
                + tasks.show(other, o -> o.gpuGroups().toString()));
  }

  private static ImmutableSortedSet<String> groups(TaskResult t) {
    return ImmutableSortedSet.copyOf(t.gpuGroups());
  }

  /** Fair share, then allocated; within each, resources in key order. */
  private static List<FieldCheck<QueueResult>> queue(QueueExpectation e) {
    List<FieldCheck<QueueResult>> checks = new ArrayList<>();
    e.fairShare()
        .ifPresent(want -> checks.addAll(amounts("fairShare", want, QueueResult::fairShare)));
    e.allocated()
        .ifPresent(want -> checks.addAll(amounts("allocated", want, QueueResult::allocated)));
    return checks;
  }

  private static List<FieldCheck<QueueResult>> amounts(
      String field,
      ImmutableSortedMap<String, Double> want,
      Function<QueueResult, Amounts> amounts) {
    return want.entrySet().stream()
        .map(
            entry -> {
              String resource = entry.getKey();
              double value = entry.getValue();
              boolean gpu = resource.equals("gpu");
              double tolerance = gpu ? GPU_TOLERANCE : CPU_MEMORY_TOLERANCE;
              Precision precision = gpu ? Precision.GPU : Precision.WHOLE;
              return new FieldCheck<QueueResult>(
                  field + "." + resource,
                  Precision.EXACT.format(value),
                  q -> within(value, amounts.apply(q).get(resource), tolerance),
                  q -> precision.format(amounts.apply(q).get(resource)));
            })
        .toList();
  }

  private static List<FieldCheck<NodeResult>> node(NodeExpectation e) {
    return present(
        List.of(
            boxed(e.idleGpus()).map(want -> count("idleGpus", want, NodeResult::idleGpus)),
            boxed(e.releasingGpus())
                .map(want -> count("releasingGpus", want, NodeResult::releasingGpus))));
  }

  private static FieldCheck<NodeResult> count(
      String field, int want, ToIntFunction<NodeResult> got) {
    return new FieldCheck<>(
        field,
        Integer.toString(want),
        n -> got.applyAsInt(n) == want,
        n -> Integer.toString(got.applyAsInt(n)));
  }

  private static <T> FieldCheck<T> equal(String field, String want, Function<T, String> got) {
    return new FieldCheck<>(field, want, o -> got.apply(o).equals(want), got);
  }

  /** A missing message contains nothing, not even the empty string: there is no message to read. */
  private static <T> FieldCheck<T> messageContains(
      String want, Function<T, Optional<String>> message) {
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
   * Zero counts are dropped on both sides before comparing, so {@code {Running: 4, Pending: 0}}
   * matches a job whose four tasks all run, whether or not the result lists a zero.
   */
  private static ImmutableSortedMap<String, Integer> nonZero(Map<String, Integer> counts) {
    return ImmutableSortedMap.copyOf(Maps.filterValues(counts, n -> n != 0));
  }

  /** Counts as the expect block writes them: {@code {Pending: 1, Running: 3}}. */
  private static String counts(ImmutableSortedMap<String, Integer> counts) {
    List<String> entries =
        counts.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList();
    return "{" + String.join(", ", entries) + "}";
  }

  /** The checks that are present, in the order given: the expectation's declaration order. */
  private static <T> List<FieldCheck<T>> present(List<Optional<FieldCheck<T>>> checks) {
    return checks.stream().flatMap(Optional::stream).toList();
  }

  private static Optional<Double> boxed(OptionalDouble value) {
    return value.isPresent() ? Optional.of(value.getAsDouble()) : Optional.empty();
  }

  private static Optional<Integer> boxed(OptionalInt value) {
    return value.isPresent() ? Optional.of(value.getAsInt()) : Optional.empty();
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }
}
