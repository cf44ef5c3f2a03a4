package io.gantry.nodecommon.cli;

import io.gantry.nodecommon.settings.NodeSettings;
import java.time.Duration;
import java.util.Map;
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

  @CommandLine.Mixin private ClusterOptions cluster = new ClusterOptions();

  @Option(
      names = "--discovery-interval",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description = "Seconds between two GPU discoveries. Default: ${DEFAULT-VALUE}.")
  private int discoveryIntervalSeconds;

  /**
   * The node's settings: {@code --node-name}, else NODE_NAME from {@code environment}; an invalid
   * value is refused naming its option.
   */
  public NodeSettings settings(Map<String, String> environment, CommandLine commandLine) {
    return OptionValues.validated(
        commandLine,
        () ->
            new NodeSettings(
                nodeName != null ? nodeName : environment.get("NODE_NAME"),
                cluster.access(),
                Duration.ofSeconds(discoveryIntervalSeconds)));
  }
}
