package io.gantry.dradriver;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * Where the driver's files are on the node (protocols.md §3.1 and §5): the registration socket in
 * the kubelet's plugin registry, the DRA socket and the checkpoint in the driver's own plugin
 * directory, and the CDI spec directory the container runtime reads.
 */
public record DriverPaths(Path pluginRegistryDirectory, Path pluginDirectory, Path cdiDirectory) {
  public static final String DEFAULT_PLUGIN_REGISTRY = "/var/lib/kubelet/plugins_registry";
  public static final String DEFAULT_PLUGIN_DIRECTORY = "/var/lib/kubelet/plugins/gpu.gantry.io";
  public static final String DEFAULT_CDI_DIRECTORY = "/var/run/cdi";

  public DriverPaths {
    requireNonNull(pluginRegistryDirectory, "pluginRegistryDirectory is null");
    requireNonNull(pluginDirectory, "pluginDirectory is null");
    requireNonNull(cdiDirectory, "cdiDirectory is null");
  }

  /** {@code <registry>/gpu.gantry.io-reg.sock}, which the kubelet's plugin watcher finds. */
  public Path registrationSocket() {
    return pluginRegistryDirectory.resolve(DriverNames.DRIVER + "-reg.sock");
  }

  /** {@code <plugin directory>/dra.sock}, the endpoint GetInfo gives the kubelet. */
  public Path draSocket() {
    return pluginDirectory.resolve("dra.sock");
  }

  public Path checkpointFile() {
    return pluginDirectory.resolve("checkpoint.json");
  }
}
