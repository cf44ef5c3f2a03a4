package io.gantry.cli;

import io.gantry.kubemodel.config.ConfigBinder;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.kube.kaisnapshot.KaiSnapshot;
import io.gantry.scheduler.kube.kaisnapshot.KaiSnapshotReader;
import io.gantry.scheduler.kube.kaisnapshot.KaiSnapshotScenario;
import io.gantry.scheduler.sim.CycleObserver;
import io.gantry.scheduler.sim.ScenarioRun;
import io.gantry.scheduler.sim.report.CycleHistory;
import io.gantry.scheduler.sim.report.HtmlReport;
import io.gantry.scheduler.sim.report.JsonReport;
import io.gantry.scheduler.sim.report.Mismatch;
import io.gantry.scheduler.sim.report.PlacementComparison;
import io.gantry.scheduler.sim.report.ResultFilter;
import io.gantry.scheduler.sim.report.TextReport;
import io.gantry.scheduler.sim.spec.ScenarioDirectory;
import io.gantry.scheduler.sim.spec.ScenarioLimits;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gantry simulate}: runs scenario files through the real engine without a cluster. Exit
 * status: 0 ran (and every expectation held with --check), 1 an expectation failed, 2 a file is
 * invalid, cannot be read or uses a feature this build does not support (with --check: or has no
 * {@code expect:} block). A bad file does not stop the others from running.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description =
        "Run scheduling cycles on scenario files (YAML or JSON) and report the decisions.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:ran; with --check every expectation held",
      "1:an expectation failed (--check)",
      "2:a file is invalid, cannot be read or uses an unsupported feature; with --check, a file"
          + " has no expect: block"
    })
final class SimulateCommand implements Callable<Integer> {
  static final int OK = 0;
  static final int EXPECTATION_FAILED = 1;
  static final int INVALID = 2;

  enum Output {
    text,
    json
  }

  @Parameters(
      arity = "1..*",
      paramLabel = "FILE|DIR",
      description =
          "Scenario files, or directories whose *.yaml, *.yml and *.json files run in name order;"
              + " a *.zip file is a KAI snapshot (the ZIP of KAI's /get-snapshot, or of gantry"
              + " snapshot export).")
  List<Path> inputs;

  @Option(
      names = "--cycles",
      paramLabel = "N",
      description = "Scheduling cycles to run; overrides config.cycles.")
  Integer cycles;

  @Option(
      names = "--actions",
      paramLabel = "LIST",
      split = ",",
      description =
          "Actions to run each cycle, in order, comma-separated (allocate, consolidation, reclaim,"
              + " preempt, stalegangeviction); overrides config.actions.")
  List<String> actions;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description =
          "text (tables for people) or json (one JSON object per scenario per line). Default: ${DEFAULT-VALUE}.")
  Output output;

  @Option(
      names = "--check",
      description =
          "Compare the outcome with each file's expect: block; exit 1 on a mismatch. A file"
              + " without an expect: block is an error (exit 2); the other files still run.")
  boolean check;

  @Option(
      names = "--max-nodes",
      paramLabel = "N",
      defaultValue = "" + ScenarioLimits.DEFAULT_MAX_NODES,
      description =
          "The most nodes a scenario may have once each count is expanded."
              + " Default: ${DEFAULT-VALUE}.")
  int maxNodes;

  @Option(
      names = "--max-pods",
      paramLabel = "N",
      defaultValue = "" + ScenarioLimits.DEFAULT_MAX_PODS,
      description =
          "The most pods (tasks) a scenario may have once each count and replicas is expanded."
              + " Default: ${DEFAULT-VALUE}.")
  int maxPods;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description =
          "Also write FILE: one self-contained HTML page (inline SVG and CSS) with the queues'"
              + " fair share and allocation, the cluster's GPUs over the cycles, a node heat map,"
              + " pending pods by reason and each job's timeline. Takes one scenario file.")
  Path report;

  @Option(
      names = "--job",
      paramLabel = "NAME",
      description =
          "Show only this job (its name in the file, or namespace/name) in the text output.")
  String job;

  @Option(
      names = "--queue",
      paramLabel = "NAME",
      description = "Show only the jobs of this queue and the queues below it in the text output.")
  String queue;

  @Option(
      names = "--compare",
      description =
          "With a KAI snapshot (*.zip): also place the snapshot's pods from scratch and list each"
              + " pod whose node differs from the snapshot's, with a summary of the counts.")
  boolean compare;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (cycles != null && cycles < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--cycles must be at least 1, got " + cycles);
    }
    if (actions != null) {
      for (String action : actions) {
        if (!ConfigBinder.ACTIONS.contains(action)) {
          throw new CommandLine.ParameterException(
              spec.commandLine(),
              "--actions: unknown action \""
                  + action
                  + "\"; expected "
                  + String.join(", ", ConfigBinder.ACTIONS));
        }
      }
    }
    requirePositive("--max-nodes", maxNodes);
    requirePositive("--max-pods", maxPods);
    ScenarioLimits limits = new ScenarioLimits(maxNodes, maxPods);
    if (report != null && (inputs.size() != 1 || Files.isDirectory(inputs.get(0)))) {
      err.println("error: --report takes one scenario file, got " + describe(inputs));
      err.flush();
      return INVALID;
    }
    if (compare && !inputs.stream().allMatch(SimulateCommand::isSnapshot)) {
      err.println("error: --compare compares a KAI snapshot's placements: give *.zip files only");
      err.flush();
      return INVALID;
    }
    int status = OK;
    for (Path input : inputs) {
      // A directory stands for its scenario files; anything else is read as one, and the loader
      // says what is wrong with it (missing, not a regular file, unreadable).
      List<Path> files;
      if (Files.isDirectory(input)) {
        try {
          files = ScenarioDirectory.scenarioFiles(input);
        } catch (ScenarioException e) {
          err.println("error: " + e.getMessage());
          err.flush();
          status = INVALID;
          continue;
        }
      } else {
        files = List.of(input);
      }
      for (Path file : files) {
        status = Math.max(status, run(file, limits, out, err));
        out.flush();
        err.flush();
      }
    }
    return status;
  }

  /** Runs one file and prints its report; returns its exit status. */
  private int run(Path file, ScenarioLimits limits, PrintWriter out, PrintWriter err) {
    ScenarioRun run;
    Optional<PlacementComparison> comparison = Optional.empty();
    try {
      ScenarioSpec scenario;
      if (isSnapshot(file)) {
        KaiSnapshot snapshot = KaiSnapshotReader.read(file);
        KaiSnapshotScenario.Result read =
            KaiSnapshotScenario.of(snapshotSource(file), snapshot, false);
        if (!read.ignored().isEmpty()) {
          err.println(
              "note: "
                  + file
                  + ": not used, no meaning in Gantry: "
                  + String.join("; ", read.ignored()));
        }
        scenario = parse(file, read, limits);
        if (compare) {
          comparison = Optional.of(compare(file, snapshot, read, limits));
        }
      } else {
        scenario = ScenarioLoader.load(file, limits);
      }
      if (actions != null) {
        scenario = scenario.withActions(actions);
      }
      if (check && !scenario.hasExpectations()) {
        err.println("error: --check: " + file + " has no expect: block");
        return INVALID;
      }
      CycleHistory history = new CycleHistory();
      // progress only for a person at a terminal: piped or captured stderr stays deterministic
      CycleObserver observer =
          System.console() != null ? new Progress(file, err, System::nanoTime) : CycleObserver.NONE;
      if (report != null) {
        observer = observer.andThen(history);
      }
      run =
          ScenarioRun.of(
              file,
              scenario,
              cycles == null ? OptionalInt.empty() : OptionalInt.of(cycles),
              observer);
      if (report != null && !writeReport(run, history, err)) {
        return INVALID;
      }
    } catch (ScenarioException e) {
      err.println("error: " + e.getMessage());
      return INVALID;
    }
    if (output == Output.json) {
      out.println(JsonReport.toJson(run.result()));
      comparison.ifPresent(c -> out.println(c.toJson()));
    } else {
      ResultFilter filter = new ResultFilter(Optional.ofNullable(job), Optional.ofNullable(queue));
      out.print(TextReport.toText(filter.apply(run.result())));
      out.println();
      comparison.ifPresent(
          c -> {
            out.print(c.toText());
            out.println();
          });
    }
    if (!check) {
      return OK;
    }
    for (Mismatch m : run.mismatches()) {
      err.println(file + ": " + m);
    }
    if (!run.mismatches().isEmpty()) {
      return EXPECTATION_FAILED;
    }
    if (output == Output.text) {
      out.println(file + ": every expectation held");
    }
    return OK;
  }

  /** A KAI snapshot, by its name: the ZIP that KAI's {@code /get-snapshot} serves. */
  static boolean isSnapshot(Path file) {
    return file.getFileName() != null && file.getFileName().toString().endsWith(".zip");
  }

  /** The scenario a snapshot was written as, loaded within the limits. */
  static ScenarioSpec parse(Path file, KaiSnapshotScenario.Result read, ScenarioLimits limits)
      throws ScenarioException {
    return ScenarioLoader.parse(file + " (as a scenario)", read.scenario(), limits);
  }

  /** What errors call the snapshot's JSON: {@code FILE.zip!/snapshot.json}. */
  private static String snapshotSource(Path file) {
    return file + "!/" + KaiSnapshot.ENTRY;
  }

  /**
   * The snapshot's placements against Gantry's, placing every pod of the snapshot's scheduler from
   * scratch for as many cycles as the run itself ({@link PlacementComparison}).
   */
  private PlacementComparison compare(
      Path file, KaiSnapshot snapshot, KaiSnapshotScenario.Result read, ScenarioLimits limits)
      throws ScenarioException {
    ScenarioSpec fromScratch =
        parse(file, KaiSnapshotScenario.of(snapshotSource(file), snapshot, true), limits);
    if (actions != null) {
      fromScratch = fromScratch.withActions(actions);
    }
    ScenarioRun placed =
        ScenarioRun.of(
            file, fromScratch, cycles == null ? OptionalInt.empty() : OptionalInt.of(cycles));
    return PlacementComparison.of(KaiSnapshotScenario.placements(read.live()), placed.result());
  }

  /** Writes the HTML report; false (with a one-line error) when the file cannot be written. */
  private boolean writeReport(ScenarioRun run, CycleHistory history, PrintWriter err) {
    try {
      Files.writeString(report, HtmlReport.render(run.result(), history), StandardCharsets.UTF_8);
      return true;
    } catch (IOException e) {
      err.println("error: --report: cannot write " + report + ": " + e);
      return false;
    }
  }

  private static String describe(List<Path> inputs) {
    if (inputs.size() != 1) {
      return inputs.size() + " inputs";
    }
    return "the directory " + inputs.get(0);
  }

  private void requirePositive(String option, int value) {
    if (value < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), option + " must be at least 1, got " + value);
    }
  }
}
