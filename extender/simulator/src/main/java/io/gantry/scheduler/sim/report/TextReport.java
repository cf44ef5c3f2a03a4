package io.gantry.scheduler.sim.report;

import static com.google.common.collect.ImmutableMap.toImmutableMap;
import static java.util.Comparator.comparingInt;
import static java.util.stream.Collectors.joining;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.ClaimResult;
import io.gantry.scheduler.sim.SimulationResult.EventResult;
import io.gantry.scheduler.sim.SimulationResult.JobResult;
import io.gantry.scheduler.sim.SimulationResult.NodeResult;
import io.gantry.scheduler.sim.SimulationResult.QueueResult;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import io.gantry.scheduler.sim.report.TextTable.Column;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The result of one scenario for people: a title, a summary line ({@link RunSummary}), then the
 * Placements, Queues (drawn as their tree), Nodes and Events tables. Nothing is truncated; a reason
 * too long for its column goes on its own line under the task. Each resource has one unit, said in
 * the head of every column that shows it: GPUs in devices, CPU in cores and memory in GiB, whatever
 * the scenario file wrote.
 */
public final class TextReport {
  /** A "why" longer than this would widen the whole table, so it gets a line of its own. */
  static final int MAX_INLINE_WHY = 60;

  // One unit per resource, named in every column head that shows it: GPUs in devices (a shared
  // GPU's portion as a fraction of one), CPU in cores, memory in GiB.
  private static final String GPUS = "GPUS";
  private static final String CPU = "CPU (cores)";
  private static final String MEMORY = "MEMORY (GiB)";

  private static final String NONE = "-";
  private static final BigDecimal BYTES_PER_GIB = BigDecimal.valueOf(1L << 30);
  private static final long UNLIMITED = -1;

  private TextReport() {}

  /**
   * The report, lines ending in a newline.
   *
   * @throws IllegalArgumentException when a number in the result is NaN or infinite
   */
  public static String toText(SimulationResult r) {
    StringBuilder out = new StringBuilder();
    out.append("Scenario ")
        .append(r.scenario())
        .append(": ")
        .append(r.cycles())
        .append(r.cycles() == 1 ? " cycle" : " cycles")
        .append('\n');
    out.append(RunSummary.of(r).line()).append('\n');
    section(out, "Placements", placements(r), r.tasks().isEmpty());
    section(out, "Queues", queues(r), r.queues().isEmpty());
    section(out, "Nodes", nodes(r), r.nodes().isEmpty());
    section(out, "Events", events(r), r.events().isEmpty());
    if (!r.claims().isEmpty()) {
      section(out, "Claims", claims(r), false);
    }
    return out.toString();
  }

  private static void section(StringBuilder out, String title, TextTable table, boolean empty) {
    out.append('\n').append(title).append('\n');
    out.append(empty ? "  (none)\n" : table.render());
  }

  private static TextTable placements(SimulationResult r) {
    ImmutableMap<String, JobResult> jobs =
        r.jobs().stream().collect(toImmutableMap(JobResult::job, j -> j, (first, later) -> first));
    TextTable table =
        new TextTable(
            List.of(
                Column.left("JOB"),
                Column.left("TASK"),
                Column.left("STATUS"),
                Column.left("NODE"),
                Column.left("SHARED GPU"),
                Column.left("WHY")));
    for (TaskResult t : tasksInJobOrder(r)) {
      String why = t.node().isPresent() ? "" : why(t, Optional.ofNullable(jobs.get(t.job())));
      List<String> whyLines = why.lines().toList();
      boolean inline = whyLines.size() <= 1 && why.length() <= MAX_INLINE_WHY;
      table.row(
          List.of(t.job(), t.task(), t.status(), t.node().orElse(NONE), gpu(t), inline ? why : ""),
          inline ? List.of() : notes("why: ", whyLines));
    }
    return table;
  }

  /**
   * Tasks grouped by job, jobs in result order; within a job, and for tasks of a job the result
   * does not list (kept last), the result's own order. Sorting a list stream is stable.
   */
  private static List<TaskResult> tasksInJobOrder(SimulationResult r) {
    ImmutableMap<String, Integer> position =
        IntStream.range(0, r.jobs().size())
            .boxed()
            .collect(toImmutableMap(i -> r.jobs().get(i).job(), i -> i, (first, later) -> first));
    return r.tasks().stream()
        .sorted(comparingInt((TaskResult t) -> position.getOrDefault(t.job(), Integer.MAX_VALUE)))
        .toList();
  }

  private static String why(TaskResult t, Optional<JobResult> job) {
    return t.message().or(() -> job.flatMap(JobResult::message)).orElse("");
  }

  private static String gpu(TaskResult t) {
    String portion =
        t.gpuPortion().isPresent() ? Precision.GPU.format(t.gpuPortion().getAsDouble()) : "";
    String groups = t.gpuGroups().isEmpty() ? "" : "[" + String.join(", ", t.gpuGroups()) + "]";
    String both = (portion + " " + groups).strip();
    if (!t.gpuDevices().isEmpty()) {
      return "devices " + t.gpuDevices().stream().map(String::valueOf).collect(joining(","));
    }
    return both.isEmpty() ? NONE : both;
  }

  private static TextTable queues(SimulationResult r) {
    TextTable table =
        new TextTable(
            List.of(
                Column.left("QUEUE"),
                Column.right("QUOTA " + GPUS),
                Column.right("FAIR " + GPUS),
                Column.right("ALLOC " + GPUS),
                Column.right("FAIR " + CPU),
                Column.right("ALLOC " + CPU),
                Column.right("FAIR " + MEMORY),
                Column.right("ALLOC " + MEMORY)));
    for (QueueTreeOrder.Row row : QueueTreeOrder.of(r.queues())) {
      QueueResult q = row.queue();
      table.row(
          List.of(
              row.prefix() + q.queue(),
              q.quota().gpu() == UNLIMITED ? "unlimited" : Precision.GPU.format(q.quota().gpu()),
              Precision.GPU.format(q.fairShare().gpu()),
              Precision.GPU.format(q.allocated().gpu()),
              cores(q.fairShare().cpu()),
              cores(q.allocated().cpu()),
              gibibytes(q.fairShare().memory()),
              gibibytes(q.allocated().memory())));
    }
    return table;
  }

  private static String cores(double millicores) {
    BigDecimal cores = Precision.WHOLE.decimal(millicores).movePointLeft(3);
    return Precision.plain(cores.stripTrailingZeros());
  }

  // Always one decimal, so that memory columns line up on the point.
  private static String gibibytes(double bytes) {
    BigDecimal gib = Precision.WHOLE.decimal(bytes).divide(BYTES_PER_GIB, 1, RoundingMode.HALF_UP);
    return Precision.plain(gib);
  }

  private static TextTable nodes(SimulationResult r) {
    TextTable table =
        new TextTable(
            List.of(
                Column.left("NODE"),
                Column.right("IDLE " + GPUS),
                Column.right("RELEASING " + GPUS),
                Column.right("USED " + GPUS),
                Column.left("SHARED GROUPS")));
    for (NodeResult n : r.nodes()) {
      List<String> groups =
          n.sharedGpuGroups().stream()
              .map(g -> g.group() + ": " + Precision.GPU.format(g.usedFraction()))
              .toList();
      table.row(
          List.of(
              n.node(),
              Integer.toString(n.idleGpus()),
              Integer.toString(n.releasingGpus()),
              Integer.toString(n.usedGpus()),
              groups.isEmpty() ? NONE : String.join(", ", groups)));
    }
    return table;
  }

  /** The claims; a CONFIG column only when some allocation passes configuration on. */
  private static TextTable claims(SimulationResult r) {
    boolean withConfig = r.claims().stream().anyMatch(c -> !c.config().isEmpty());
    List<Column> columns = new ArrayList<>();
    columns.add(Column.left("CLAIM"));
    columns.add(Column.left("NODE"));
    columns.add(Column.left("DEVICES"));
    if (withConfig) {
      columns.add(Column.left("CONFIG"));
    }
    columns.add(Column.left("RESERVED FOR"));
    TextTable table = new TextTable(columns);
    for (ClaimResult c : r.claims()) {
      List<String> row = new ArrayList<>();
      row.add(c.claim());
      row.add(c.node().orElse(NONE));
      row.add(c.devices().isEmpty() ? "(unallocated)" : String.join(", ", c.devices()));
      if (withConfig) {
        row.add(c.config().isEmpty() ? NONE : String.join("; ", c.config()));
      }
      row.add(c.reservedFor().isEmpty() ? NONE : String.join(", ", c.reservedFor()));
      table.row(row);
    }
    return table;
  }

  private static TextTable events(SimulationResult r) {
    TextTable table =
        new TextTable(
            List.of(
                Column.right("CYCLE"),
                Column.left("OBJECT"),
                Column.left("REASON"),
                Column.left("MESSAGE")));
    for (EventResult e : r.events()) {
      // Later lines of a multi-line message get rows of their own, under the MESSAGE column.
      List<String> lines = e.message().isEmpty() ? List.of("") : e.message().lines().toList();
      table.row(List.of(Integer.toString(e.cycle()), e.object(), e.reason(), lines.get(0)));
      lines.stream().skip(1).forEach(line -> table.row(List.of("", "", "", line)));
    }
    return table;
  }

  /** The first line after {@code label}, later lines indented to line up under it. */
  private static List<String> notes(String label, List<String> lines) {
    String continuation = " ".repeat(label.length());
    return IntStream.range(0, lines.size())
        .mapToObj(i -> (i == 0 ? label : continuation) + lines.get(i))
        .collect(ImmutableList.toImmutableList());
  }
}
