package io.gantry.deviceagent.cli;

import io.gantry.nodecommon.cli.StopSignal;
import io.gantry.nodecommon.nvml.JnaNvml;
import io.gantry.nodecommon.nvml.NvmlSession;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
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
            StopSignal::countDownOnStop);
    System.exit(cli.execute(args));
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
    return commandLine(environment, stopped, nvml, clock, latch -> {});
  }

  /**
   * The command line whose {@code serve} and {@code reserve}, once started, hand {@code stopped} to
   * {@code onStop}: the process's {@link StopSignal} counts it down on SIGTERM and SIGINT, so they
   * stop gracefully and exit 0 (tests count it down themselves).
   */
  static CommandLine commandLine(
      Map<String, String> environment,
      CountDownLatch stopped,
      NvmlSession.Loader nvml,
      Clock clock,
      Consumer<CountDownLatch> onStop) {
    return new CommandLine(new DeviceAgentCli())
        .addSubcommand(new DiscoverCommand(new TreeMap<>(environment), nvml))
        .addSubcommand(new ServeCommand(new TreeMap<>(environment), stopped, nvml, clock, onStop))
        .addSubcommand(new ReserveCommand(new TreeMap<>(environment), stopped, nvml, onStop))
        .addSubcommand(new CommandLine.HelpCommand());
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "a command is required (try: gantry-device-agent discover, serve, or reserve)");
  }
}
