package io.gantry.nodecommon.kube;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
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
 * else every existing file that {@code $KUBECONFIG} lists (merged by {@link KubeconfigFiles} as
 * kubectl merges them), else {@code ~/.kube/config} when it exists, else the pod's in-cluster
 * service account ({@code $KUBERNETES_SERVICE_HOST} set). One locator for every Gantry command that
 * talks to a cluster: the scheduler, the extender, {@code crds apply} and the node components.
 */
public final class KubeconfigLocator {
  /**
   * The configuration found: kubeconfig files to merge, first first, or the in-cluster service
   * account when there are none.
   */
  public record Location(ImmutableList<Path> files) {
    public Location {
      requireNonNull(files, "files is null");
    }

    /** One kubeconfig file. */
    public static Location of(Path file) {
      return new Location(ImmutableList.of(file));
    }

    /** The pod's in-cluster service account. */
    public static Location inCluster() {
      return new Location(ImmutableList.of());
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
      return Location.of(explicit.get());
    }
    String listed = environment.getOrDefault("KUBECONFIG", "");
    if (!listed.isEmpty()) {
      List<String> names =
          Splitter.on(File.pathSeparatorChar).omitEmptyStrings().splitToList(listed);
      // kubectl skips the listed files that do not exist and merges the others
      ImmutableList<Path> existing =
          names.stream().map(Path::of).filter(Files::isRegularFile).collect(toImmutableList());
      if (existing.isEmpty()) {
        throw new IOException("$KUBECONFIG lists no file that exists: " + listed);
      }
      return new Location(existing);
    }
    Path userConfig = home.resolve(".kube").resolve("config");
    if (Files.isRegularFile(userConfig)) {
      return Location.of(userConfig);
    }
    if (!environment.getOrDefault("KUBERNETES_SERVICE_HOST", "").isEmpty()) {
      return Location.inCluster();
    }
    throw new IOException(
        "no cluster configuration found: no --kubeconfig, $KUBECONFIG is not set, "
            + userConfig
            + " does not exist, and $KUBERNETES_SERVICE_HOST is not set (not in a pod)");
  }
}
