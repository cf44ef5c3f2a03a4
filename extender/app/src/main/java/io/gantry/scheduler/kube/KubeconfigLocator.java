package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableMap;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the cluster's configuration comes from, in kubectl's order: the {@code --kubeconfig} file,
 * else the first existing file that {@code $KUBECONFIG} lists, else {@code ~/.kube/config} when it
 * exists, else the pod's in-cluster service account ({@code $KUBERNETES_SERVICE_HOST} set). Unlike
 * kubectl, the files {@code $KUBECONFIG} lists are not merged: the first one that exists is read.
 */
public final class KubeconfigLocator {
  /** The configuration found: a kubeconfig file, or the in-cluster service account when empty. */
  public record Location(Optional<Path> file) {
    public Location {
      requireNonNull(file, "file is null");
    }
  }

  private final Map<String, String> environment;
  private final Path home;

  public KubeconfigLocator(Map<String, String> environment, Path home) {
    this.environment = ImmutableMap.copyOf(environment);
    this.home = requireNonNull(home, "home is null");
  }

  /** The locator of this process: its environment and {@code user.home}. */
  public static KubeconfigLocator ofThisProcess() {
    return new KubeconfigLocator(System.getenv(), Path.of(System.getProperty("user.home")));
  }

  /**
   * The configuration to use.
   *
   * @throws IOException naming everything that was tried, in one line, when none is there
   */
  public Location locate(Optional<Path> explicit) throws IOException {
    if (explicit.isPresent()) {
      return new Location(explicit);
    }
    String listed = environment.getOrDefault("KUBECONFIG", "");
    if (!listed.isEmpty()) {
      List<String> files =
          Splitter.on(File.pathSeparatorChar).omitEmptyStrings().splitToList(listed);
      for (String f : files) {
        if (Files.isRegularFile(Path.of(f))) {
          return new Location(Optional.of(Path.of(f)));
        }
      }
      throw new IOException("$KUBECONFIG lists no file that exists: " + listed);
    }
    Path userConfig = home.resolve(".kube").resolve("config");
    if (Files.isRegularFile(userConfig)) {
      return new Location(Optional.of(userConfig));
    }
    if (!environment.getOrDefault("KUBERNETES_SERVICE_HOST", "").isEmpty()) {
      return new Location(Optional.empty());
    }
    throw new IOException(
        "no cluster configuration found: no --kubeconfig, $KUBECONFIG is not set, "
            + userConfig
            + " does not exist, and $KUBERNETES_SERVICE_HOST is not set (not in a pod)");
  }
}
