package io.gantry.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code gantry} command line. */
@Command(
    name = "gantry",
    mixinStandardHelpOptions = true,
    versionProvider = GantryVersion.class,
    description = "Gantry: a Kubernetes scheduler for AI and GPU workloads.",
    subcommands = {
      SimulateCommand.class,
      ExplainCommand.class,
      QueuesCommand.class,
      SchedulerCommand.class,
      ExtenderCommand.class,
      BenchCommand.class,
      TraceCommand.class,
      SnapshotCommand.class,
      ExtenderBenchCommand.class,
      CrdsCommand.class,
      CommandLine.HelpCommand.class
    })
public final class GantryCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line; tests run it in-process. */
  public static CommandLine commandLine() {
    return new CommandLine(new GantryCli());
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a command is required (try: gantry simulate FILE)");
  }
}
