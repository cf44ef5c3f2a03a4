package io.gantry.nodecommon.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of a node DaemonSet's {@code serve}: which node it serves, how it reaches the API
 * server and how often it takes the GPU inventory. A picocli mixin shared by the device agent and
 * the DRA driver.
 */
public final class NodeOptions {
  @Option(
      names = "--node-name",
      paramLabel = "NAME",
      description =
          "This node's name. Default: the NODE_NAME environment variable (set it from"
              + " spec.nodeName in the DaemonSet).")
  private String nodeName;

  @Option(
      names = "--kubeconfig",
      paramLabel = "PATH",
      description = "Kubeconfig file for the API server. Default: the pod's service account.")
  private Path kubeconfig;

  @Option(
      names = "--discovery-interval",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description = "Seconds between two GPU discoveries. Default: ${DEFAULT-VALUE}.")
  private int discoveryIntervalSeconds;

  /** {@code --node-name}, else NODE_NAME from {@code environment}; refused when neither is set. */
  public String nodeName(Map<String, String> environment, CommandLine commandLine) {
    String node = nodeName != null ? nodeName : environment.get("NODE_NAME");
    if (node == null || node.isBlank()) {
      throw new CommandLine.ParameterException(
          commandLine, "--node-name is required (or set NODE_NAME)");
    }
    return node;
  }

  /** The discovery interval; refused under one second, naming the option. */
  public Duration discoveryInterval(CommandLine commandLine) {
    if (discoveryIntervalSeconds < 1) {
      throw new CommandLine.ParameterException(
          commandLine,
          "--discovery-interval must be at least 1 second, got " + discoveryIntervalSeconds);
    }
    return Duration.ofSeconds(discoveryIntervalSeconds);
  }

  /** The kubeconfig file; empty for the pod's service account. */
  public Optional<Path> kubeconfig() {
    return Optional.ofNullable(kubeconfig);
  }
}
