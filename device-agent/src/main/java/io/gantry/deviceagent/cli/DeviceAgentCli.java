package io.gantry.deviceagent.cli;

import io.gantry.nodecommon.nvml.JnaNvml;
import io.gantry.nodecommon.nvml.NvmlSession;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code gantry-device-agent} command line. */
@Command(
    name = "gantry-device-agent",
    mixinStandardHelpOptions = true,
    versionProvider = AgentVersion.class,
    description = "Gantry's GPU node agent.")
public final class DeviceAgentCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    CommandLine cli =
        commandLine(
            System.getenv(),
            new CountDownLatch(1),
            JnaNvml::load,
            Clock.systemUTC(),
            DeviceAgentCli::onSigterm);
    System.exit(cli.execute(args));
  }

  /**
   * Runs {@code stop} on SIGTERM instead of the JVM's default exit (status 143): {@code reserve}
   * then ends with status 0, as a pod that was asked to stop should.
   */
  @SuppressWarnings("restriction")
  private static void onSigterm(Runnable stop) {
    sun.misc.Signal.handle(new sun.misc.Signal("TERM"), signal -> stop.run());
  }

  /**
   * The configured command line; {@code environment} supplies PATH for finding nvidia-smi (tests
   * run it in-process with their own).
   */
  public static CommandLine commandLine(Map<String, String> environment) {
    return commandLine(environment, new CountDownLatch(1));
  }

  /** The command line whose {@code serve} returns once {@code stopped} is counted down. */
  static CommandLine commandLine(Map<String, String> environment, CountDownLatch stopped) {
    return commandLine(environment, stopped, JnaNvml::load);
  }

  /** The command line loading NVML with {@code nvml} (tests pass a fake). */
  static CommandLine commandLine(
      Map<String, String> environment, CountDownLatch stopped, NvmlSession.Loader nvml) {
    return commandLine(environment, stopped, nvml, Clock.systemUTC());
  }

  /**
   * The command line whose {@code serve} hands {@code clock} to every part of the agent that reads
   * the time (the system clock in UTC, except in tests).
   */
  static CommandLine commandLine(
      Map<String, String> environment,
      CountDownLatch stopped,
      NvmlSession.Loader nvml,
      Clock clock) {
    return commandLine(environment, stopped, nvml, clock, ReserveCommand.StopSignal.NONE);
  }

  /**
   * The command line whose {@code reserve} also stops when {@code signal} says the process was told
   * to.
   */
  static CommandLine commandLine(
      Map<String, String> environment,
      CountDownLatch stopped,
      NvmlSession.Loader nvml,
      Clock clock,
      ReserveCommand.StopSignal signal) {
    return new CommandLine(new DeviceAgentCli())
        .addSubcommand(new DiscoverCommand(new TreeMap<>(environment), nvml))
        .addSubcommand(new ServeCommand(new TreeMap<>(environment), stopped, nvml, clock))
        .addSubcommand(new ReserveCommand(new TreeMap<>(environment), stopped, nvml, signal))
        .addSubcommand(new CommandLine.HelpCommand());
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "a command is required (try: gantry-device-agent discover, serve, or reserve)");
  }
}
