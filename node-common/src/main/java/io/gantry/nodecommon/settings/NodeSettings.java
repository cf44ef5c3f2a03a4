package io.gantry.nodecommon.settings;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What every node DaemonSet's {@code serve} is told about its node: which node it serves, how it
 * reaches the API server and how often it takes the GPU inventory. Validated here, so an invalid
 * value is refused before anything starts, naming its option.
 *
 * @param nodeName the node's name ({@code --node-name}, else NODE_NAME)
 * @param kubeconfig the kubeconfig file; empty for the pod's service account
 * @param discoveryInterval the time between two GPU discoveries, at least one second
 */
public record NodeSettings(String nodeName, Optional<Path> kubeconfig, Duration discoveryInterval) {
  public NodeSettings {
    requireNonNull(kubeconfig, "kubeconfig is null");
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
