package io.gantry.cli;

import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.sim.trace.InflateComparison;
import io.gantry.scheduler.sim.trace.InflateReport;
import io.gantry.scheduler.sim.trace.InflateResult;
import io.gantry.scheduler.sim.trace.LineChart;
import io.gantry.scheduler.sim.trace.PolicySummary;
import io.gantry.scheduler.sim.trace.TimelineReplay;
import io.gantry.scheduler.sim.trace.TimelineReport;
import io.gantry.scheduler.sim.trace.TimelineResult;
import io.gantry.scheduler.sim.trace.TraceException;
import io.gantry.scheduler.sim.trace.TraceNode;
import io.gantry.scheduler.sim.trace.TraceReader;
import io.gantry.scheduler.sim.trace.TraceTask;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gantry trace}: replays a GPU cluster trace (Alibaba's cluster-trace-gpu-v2023 CSV format)
 * through the engine's own cycle under several placement policies, and reports how much GPU each
 * leaves unallocated (inflate) or how the cluster fares over time (timeline). Progress goes to
 * standard error.
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = {
      "Replay a GPU cluster trace (nodes CSV + tasks CSV) under several placement policies.",
      "inflate: the protocol of \"Beware of Fragmentation\" (ATC 2023): per seed, shuffle the"
          + " tasks, append tasks drawn with replacement up to --ratio × GPU capacity; tasks"
          + " arrive one at a time, never leave, and are dropped when they do not fit.",
      "timeline: tasks arrive at creation_time and leave at deletion_time; a scheduling cycle"
          + " runs every --period."
    },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:the trace ran", "2:an option or a trace file is invalid"})
final class TraceCommand implements Callable<Integer> {
  static final int OK = 0;
  static final int INVALID = 2;
  static final String DEFAULT_NODES = "openb_node_list_gpu_node.csv";
  static final String DEFAULT_TASKS = "openb_pod_list_default.csv";
  static final String DEFAULT_POLICIES =
      "binpack,random,dot-product,gpu-packing,best-fit,fragmentation-aware";

  @Parameters(
      arity = "0..1",
      paramLabel = "DIR",
      description = "Folder holding " + DEFAULT_NODES + " and " + DEFAULT_TASKS + " (default: .).")
  Path dir;

  @Option(names = "--nodes", paramLabel = "FILE", description = "The nodes CSV.")
  Path nodesFile;

  @Option(names = "--tasks", paramLabel = "FILE", description = "The tasks CSV.")
  Path tasksFile;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      defaultValue = "inflate",
      description = "inflate or timeline. Default: ${DEFAULT-VALUE}.")
  String mode;

  @Option(
      names = "--policy",
      paramLabel = "LIST",
      defaultValue = DEFAULT_POLICIES,
      description =
          "Placement policies, comma-separated, each run on the same arrivals. Default:"
              + " ${DEFAULT-VALUE}.")
  String policies;

  @Option(
      names = "--seeds",
      paramLabel = "SEEDS",
      defaultValue = "42",
      description = "inflate: seeds, as A..B or a comma-separated list. Default: ${DEFAULT-VALUE}.")
  String seeds;

  @Option(
      names = "--ratio",
      paramLabel = "R",
      defaultValue = "1.3",
      description =
          "inflate: arrived demand to stop at, × GPU capacity. Default: ${DEFAULT-VALUE}.")
  double ratio;

  @Option(
      names = "--period",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description = "timeline: time between scheduling cycles. Default: ${DEFAULT-VALUE}.")
  String period;

  @Option(
      names = "--threads",
      paramLabel = "N",
      defaultValue = "1",
      description = "inflate: runs (seed × policy) at a time. Default: ${DEFAULT-VALUE}.")
  int threads;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "text (tables) or json (one object). Default: ${DEFAULT-VALUE}.")
  String output;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description = "Also write an HTML page with the chart as inline SVG and the table.")
  Path html;

  @Option(names = "--svg", paramLabel = "FILE", description = "Also write the chart as SVG.")
  Path svg;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      return run(out, err);
    } catch (InvalidInput | TraceException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return INVALID;
    }
  }

  private int run(PrintWriter out, PrintWriter err) throws InvalidInput, TraceException {
    if (!mode.equals("inflate") && !mode.equals("timeline")) {
      throw new InvalidInput("--mode: expected inflate or timeline, got \"" + mode + "\"");
    }
    if (!output.equals("text") && !output.equals("json")) {
      throw new InvalidInput("--output: expected text or json, got \"" + output + "\"");
    }
    List<PlacementStrategy> policyList = policies(policies);
    Path base = dir == null ? Path.of(".") : dir;
    Path nodesPath = nodesFile != null ? nodesFile : base.resolve(DEFAULT_NODES);
    Path tasksPath = tasksFile != null ? tasksFile : base.resolve(DEFAULT_TASKS);
    List<TraceNode> nodes = TraceReader.nodes(nodesPath);
    List<TraceTask> tasks = TraceReader.tasks(tasksPath);
    SchedulerWiring wiring = new SchedulerWiring(new CelDeviceSelectors());
    String table;
    String chart;
    if (mode.equals("inflate")) {
      List<Long> seedList = seeds(seeds);
      if (threads < 1 || threads > 64) {
        throw new InvalidInput("--threads: expected 1..64, got " + threads);
      }
      if (!(ratio > 0) || ratio > 10) {
        throw new InvalidInput("--ratio: expected a number in (0, 10], got " + ratio);
      }
      err.println(
          "trace: "
              + nodes.size()
              + " nodes, "
              + tasks.size()
              + " tasks; "
              + policyList.size()
              + " policies × "
              + seedList.size()
              + " seeds");
      err.flush();
      List<InflateResult> results =
          new InflateComparison(wiring, line -> progress(err, line))
              .run(nodes, tasks, policyList, seedList, ratio, threads);
      List<PolicySummary> summaries = PolicySummary.of(policyList, results);
      table = InflateReport.text(summaries, seedList, ratio);
      chart =
          LineChart.svg(
              "Unallocated GPU vs arrived GPU demand (mean of " + seedList.size() + " seeds)",
              "arrived GPU demand (% of capacity)",
              "unallocated GPU (% of capacity)",
              InflateReport.series(summaries));
      out.print(
          output.equals("json")
              ? InflateReport.json(summaries, seedList, ratio) + System.lineSeparator()
              : table);
    } else {
      Duration every = duration(period);
      List<TimelineResult> results = new ArrayList<>();
      for (PlacementStrategy p : policyList) {
        results.add(
            new TimelineReplay(wiring, line -> progress(err, line)).run(nodes, tasks, p, every));
      }
      table = TimelineReport.text(results, every);
      chart =
          LineChart.svg(
              "Allocated GPU over time",
              "time (hours from the first task)",
              "allocated GPU (% of capacity)",
              TimelineReport.series(results));
      out.print(
          output.equals("json")
              ? TimelineReport.json(results, every) + System.lineSeparator()
              : table);
    }
    out.flush();
    write(html, LineChart.html("gantry trace: " + mode, table, List.of(chart)));
    write(svg, chart);
    return OK;
  }

  private static void progress(PrintWriter err, String line) {
    synchronized (err) {
      err.println(line);
      err.flush();
    }
  }

  private static void write(Path file, String text) throws InvalidInput {
    if (file == null) {
      return;
    }
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidInput("cannot write " + file + ": " + e.getMessage());
    }
  }

  static List<PlacementStrategy> policies(String text) throws InvalidInput {
    List<PlacementStrategy> out = new ArrayList<>();
    for (String name : text.split(",", -1)) {
      try {
        PlacementStrategy p = PlacementStrategy.parse(name.trim());
        if (!out.contains(p)) {
          out.add(p);
        }
      } catch (IllegalArgumentException e) {
        throw new InvalidInput("--policy: " + e.getMessage());
      }
    }
    return out;
  }

  static List<Long> seeds(String text) throws InvalidInput {
    List<Long> out = new ArrayList<>();
    try {
      int range = text.indexOf("..");
      if (range >= 0) {
        long from = Long.parseLong(text.substring(0, range).trim());
        long to = Long.parseLong(text.substring(range + 2).trim());
        if (to < from || to - from >= 1000) {
          throw new InvalidInput(
              "--seeds: expected A..B with A <= B and at most 1000 seeds, got " + text);
        }
        for (long s = from; s <= to; s++) {
          out.add(s);
        }
      } else {
        for (String s : text.split(",", -1)) {
          out.add(Long.parseLong(s.trim()));
        }
      }
    } catch (NumberFormatException e) {
      throw new InvalidInput(
          "--seeds: expected A..B or a comma-separated list of numbers, got \"" + text + "\"");
    }
    return out;
  }

  private static Duration duration(String text) throws InvalidInput {
    try {
      Duration d = io.gantry.scheduler.api.config.GoDuration.parse(text);
      if (d.isNegative() || d.isZero()) {
        throw new InvalidInput("--period: expected a positive duration, got " + text);
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw new InvalidInput(
          "--period: expected a duration such as 60s or 5m, got \"" + text + "\"");
    }
  }

  /** An option the user gave is not valid; the message names it. */
  static final class InvalidInput extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidInput(String message) {
      super(message);
    }
  }
}
