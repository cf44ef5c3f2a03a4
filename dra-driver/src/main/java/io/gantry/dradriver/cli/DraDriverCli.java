package io.gantry.dradriver.cli;

import io.gantry.nodecommon.cli.StopSignal;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code gantry-dra-driver} command line. */
@Command(
    name = "gantry-dra-driver",
    mixinStandardHelpOptions = true,
    versionProvider = DriverVersion.class,
    description = "Gantry's DRA kubelet plugin for NVIDIA GPUs (driver gpu.gantry.io).")
public final class DraDriverCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Runs the command line; SIGTERM or SIGINT stops {@code serve} gracefully (its sockets removed,
   * exit status 0). {@code serve} is the only command that runs for long, so the signals stop it.
   */
  public static void main(String[] args) {
    CountDownLatch stopped = new CountDownLatch(1);
    StopSignal.countDownOnStop(stopped);
    System.exit(commandLine(System.getenv(), stopped).execute(args));
  }

  /** The configured command line; {@code environment} supplies NODE_NAME and PATH. */
  public static CommandLine commandLine(Map<String, String> environment) {
    return commandLine(environment, new CountDownLatch(1));
  }

  /** The command line whose {@code serve} returns once {@code stopped} is counted down. */
  static CommandLine commandLine(Map<String, String> environment, CountDownLatch stopped) {
    return new CommandLine(new DraDriverCli())
        .addSubcommand(new ServeCommand(new TreeMap<>(environment), stopped))
        .addSubcommand(new CommandLine.HelpCommand());
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a command is required (try: gantry-dra-driver serve)");
  }
}
