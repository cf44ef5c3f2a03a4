package io.gantry.nodecommon.settings;

import static java.util.Objects.requireNonNull;

import io.gantry.nodecommon.kube.ClusterAccess;
import java.time.Duration;

/**
 * What every node DaemonSet's {@code serve} is told about its node: which node it serves, how it
 * reaches the API server and how often it takes the GPU inventory. Validated here, so an invalid
 * value is refused before anything starts, naming its option.
 *
 * @param nodeName the node's name ({@code --node-name}, else NODE_NAME)
 * @param cluster how it reaches the API server ({@code --kubeconfig}, {@code --context}, {@code
 *     --startup-timeout})
 * @param discoveryInterval the time between two GPU discoveries, at least one second
 */
public record NodeSettings(String nodeName, ClusterAccess cluster, Duration discoveryInterval) {
  public NodeSettings {
    requireNonNull(cluster, "cluster is null");
    requireNonNull(discoveryInterval, "discoveryInterval is null");
    if (nodeName == null || nodeName.isBlank()) {
      throw new IllegalArgumentException("--node-name is required (or set NODE_NAME)");
    }
    if (discoveryInterval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "--discovery-interval must be at least 1 second, got " + discoveryInterval.toSeconds());
    }
  }
}
