package io.gantry.cli;

import io.gantry.scheduler.sim.ScenarioRun;
import io.gantry.scheduler.sim.report.JsonReport;
import io.gantry.scheduler.sim.report.Mismatch;
import io.gantry.scheduler.sim.report.TextReport;
import io.gantry.scheduler.sim.spec.ScenarioException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gantry simulate}: runs scenario files through the real engine without a cluster. Exit
 * status: 0 ran (and every expectation held with --check), 1 an expectation failed, 2 a file is
 * invalid or uses a feature this build does not support.
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
      "2:a file is invalid or uses an unsupported feature"
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
          "Scenario files, or directories whose *.yaml, *.yml and *.json files run in name order.")
  List<Path> inputs;

  @Option(
      names = "--cycles",
      paramLabel = "N",
      description = "Scheduling cycles to run; overrides config.cycles.")
  Integer cycles;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description =
          "text (tables for people) or json (one JSON object per scenario per line). Default: ${DEFAULT-VALUE}.")
  Output output;

  @Option(
      names = "--check",
      description = "Compare the outcome with each file's expect: block; exit 1 on a mismatch.")
  boolean check;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (cycles != null && cycles < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--cycles must be at least 1, got " + cycles);
    }
    List<Path> files;
    try {
      files = expand(inputs);
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      return INVALID;
    }
    int status = OK;
    for (Path file : files) {
      try {
        ScenarioRun run =
            ScenarioRun.of(file, cycles == null ? OptionalInt.empty() : OptionalInt.of(cycles));
        if (output == Output.json) {
          out.println(JsonReport.toJson(run.result()));
        } else {
          out.print(TextReport.toText(run.result()));
          out.println();
        }
        if (check) {
          for (Mismatch m : run.mismatches()) {
            err.println(file + ": " + m);
          }
          if (!run.mismatches().isEmpty()) {
            status = Math.max(status, EXPECTATION_FAILED);
          } else if (output == Output.text) {
            out.println(file + ": every expectation held");
          }
        }
      } catch (ScenarioException e) {
        err.println("error: " + e.getMessage());
        status = INVALID;
      }
      out.flush();
      err.flush();
    }
    return status;
  }

  private static List<Path> expand(List<Path> inputs) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path p : inputs) {
      if (Files.isDirectory(p)) {
        try (Stream<Path> s = Files.list(p)) {
          s.filter(f -> f.toString().matches(".*\\.(ya?ml|json)$")).sorted().forEach(files::add);
        }
      } else if (Files.isRegularFile(p)) {
        files.add(p);
      } else {
        throw new IOException(p + ": no such file or directory");
      }
    }
    return files;
  }
}
