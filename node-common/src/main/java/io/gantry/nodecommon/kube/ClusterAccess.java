package io.gantry.nodecommon.kube;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Which cluster a command talks to, as its options say: the kubeconfig ({@code --kubeconfig}; empty
 * for kubectl's defaults, {@link KubeconfigLocator}) and the context ({@code --context}; empty for
 * the configuration's current context).
 */
public record ClusterAccess(Optional<Path> kubeconfig, Optional<String> context) {
  public ClusterAccess {
    requireNonNull(kubeconfig, "kubeconfig is null");
    requireNonNull(context, "context is null");
  }

  /** kubectl's defaults. */
  public static ClusterAccess defaults() {
    return new ClusterAccess(Optional.empty(), Optional.empty());
  }

  /** This kubeconfig file, on its current context. */
  public static ClusterAccess ofKubeconfig(Path file) {
    return new ClusterAccess(Optional.of(file), Optional.empty());
  }
}
