package io.gantry.nodecommon.cli;

import io.gantry.nodecommon.kube.ClusterAccess;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The options of every command that talks to a cluster ({@code gantry scheduler}, {@code extender},
 * {@code crds apply}, and the node components' {@code serve}): which kubeconfig and which context.
 * A picocli mixin.
 */
public final class ClusterOptions {
  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "A kubeconfig file; default: the files $KUBECONFIG lists (merged as kubectl merges"
              + " them), else ~/.kube/config, else the pod's in-cluster service account.")
  private Path kubeconfig;

  @Option(
      names = "--context",
      paramLabel = "NAME",
      description = "The kubeconfig context to use. Default: its current-context.")
  private String context;

  /** The options' values. */
  public ClusterAccess access() {
    return new ClusterAccess(Optional.ofNullable(kubeconfig), Optional.ofNullable(context));
  }
}
