package io.gantry.dradriver;

import static java.util.Objects.requireNonNull;

import io.gantry.nodecommon.settings.NodeSettings;
import io.gantry.nodecommon.settings.NvidiaSmiSettings;
import java.util.Optional;

/**
 * Everything {@code gantry-dra-driver serve} is told; each part validates itself, naming the option
 * it refuses, before anything starts.
 *
 * @param node the node, its API server and the discovery interval
 * @param nvidiaSmi the nvidia-smi discovery runs
 * @param pathVariable the PATH nvidia-smi is looked up in
 * @param paths where the driver's sockets, checkpoint and CDI specs go
 */
public record DraDriverSettings(
    NodeSettings node,
    NvidiaSmiSettings nvidiaSmi,
    Optional<String> pathVariable,
    DriverPaths paths) {
  public DraDriverSettings {
    requireNonNull(node, "node is null");
    requireNonNull(nvidiaSmi, "nvidiaSmi is null");
    requireNonNull(pathVariable, "pathVariable is null");
    requireNonNull(paths, "paths is null");
  }
}
