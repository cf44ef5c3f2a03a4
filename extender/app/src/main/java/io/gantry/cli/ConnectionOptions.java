package io.gantry.cli;

import io.gantry.nodecommon.cli.ClusterOptions;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.gantry.scheduler.api.config.GoDuration;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The connection options of Gantry's cluster commands ({@code scheduler}, {@code extender}, {@code
 * crds apply}): the kubeconfig and context every Gantry component takes ({@link ClusterOptions}),
 * and how long to wait at start for the API server. A picocli mixin.
 */
final class ConnectionOptions {
  @CommandLine.Mixin ClusterOptions cluster = new ClusterOptions();

  @Option(
      names = "--startup-timeout",
      paramLabel = "DURATION",
      defaultValue = "30s",
      description =
          "How long to wait at start for the API server to answer; after it, exit 2 naming the"
              + " server's address and the cause (Go duration). Default: ${DEFAULT-VALUE}.")
  String startupTimeout = "30s";

  ClusterAccess access() {
    return cluster.access();
  }

  /** {@code --startup-timeout}, refused naming the option when it is not a duration. */
  Duration startupTimeout(CommandLine commandLine) {
    try {
      Duration timeout = GoDuration.parse(startupTimeout);
      if (!timeout.isNegative()) {
        return timeout;
      }
    } catch (IllegalArgumentException e) {
      // refused below, in the command line's words
    }
    throw new CommandLine.ParameterException(
        commandLine,
        "--startup-timeout: expected a duration such as 30s or 2m, got " + startupTimeout);
  }

  /** {@code settings} connecting as these options say, serving ops on {@code opsPort}. */
  SchedulerSettings connect(SchedulerSettings settings, int opsPort, CommandLine commandLine) {
    return settings.withConnection(access(), startupTimeout(commandLine), opsPort);
  }
}
