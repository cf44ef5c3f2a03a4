package io.gantry.deviceagent;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.DeviceNaming;
import io.gantry.nodecommon.settings.NodeSettings;
import io.gantry.nodecommon.settings.NvidiaSmiSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Everything {@code gantry-device-agent serve} is told, validated in the constructor so that an
 * invalid value is refused, naming its option, before anything starts. The device plugin directory
 * is checked on disk here too: the kubelet owns it, and the agent must not create it.
 *
 * @param node the node, its API server and the discovery interval
 * @param nvidiaSmi the nvidia-smi the usage watch (and nvidia-smi discovery) runs
 * @param discovery where the inventory comes from
 * @param pathVariable the PATH that nvidia-smi and the MPS control program are looked up in
 * @param devicePluginDirectory the kubelet's device plugin directory (holds kubelet.sock)
 * @param shareSlotsPerGpu gantry.io/gpu-share devices offered per GPU, at least one
 * @param deviceNaming how containers are given their GPUs
 * @param procRoot where the host's processes are
 * @param evictOverGrant whether a pod over its GPU memory grant is evicted (else only an event)
 * @param mps the MPS control daemons to run; empty without {@code --mps}
 * @param nodeAgentSocket the node-agent API's Unix socket
 * @param nodeAgentPort the node-agent API's TCP port (1..65535); empty for the socket only
 * @param servesDevicePlugins whether the agent is the node's device plugin for {@code
 *     nvidia.com/gpu} and {@code gantry.io/gpu-share} ({@code --gpu-sharing-mode device-plugin});
 *     in reservation-pods mode NVIDIA's device plugin is, and the agent registers nothing
 */
public record DeviceAgentSettings(
    NodeSettings node,
    NvidiaSmiSettings nvidiaSmi,
    DiscoveryMode discovery,
    Optional<String> pathVariable,
    Path devicePluginDirectory,
    int shareSlotsPerGpu,
    DeviceNaming deviceNaming,
    Path procRoot,
    boolean evictOverGrant,
    Optional<MpsSettings> mps,
    Path nodeAgentSocket,
    OptionalInt nodeAgentPort,
    boolean servesDevicePlugins) {
  public DeviceAgentSettings {
    requireNonNull(node, "node is null");
    requireNonNull(nvidiaSmi, "nvidiaSmi is null");
    requireNonNull(discovery, "discovery is null");
    requireNonNull(pathVariable, "pathVariable is null");
    requireNonNull(devicePluginDirectory, "devicePluginDirectory is null");
    requireNonNull(deviceNaming, "deviceNaming is null");
    requireNonNull(procRoot, "procRoot is null");
    requireNonNull(mps, "mps is null");
    requireNonNull(nodeAgentSocket, "nodeAgentSocket is null");
    requireNonNull(nodeAgentPort, "nodeAgentPort is null");
    if (nodeAgentPort.isPresent()
        && (nodeAgentPort.getAsInt() < 1 || nodeAgentPort.getAsInt() > 65_535)) {
      throw new IllegalArgumentException(
          "--node-agent-port must be in 1..65535, got " + nodeAgentPort.getAsInt());
    }
    if (shareSlotsPerGpu < 1) {
      throw new IllegalArgumentException(
          "--share-slots-per-gpu must be at least 1, got " + shareSlotsPerGpu);
    }
    if (!Files.isDirectory(devicePluginDirectory)) {
      throw new IllegalArgumentException(
          "--device-plugin-dir " + devicePluginDirectory + " is not a directory");
    }
  }

  /**
   * {@code --mps}: one MPS control daemon per GPU that MPS pods use.
   *
   * @param control the MPS control program: a path, or a name looked up on PATH
   * @param pipeRoot the host directory holding one MPS pipe directory per GPU
   * @param logRoot the directory of the daemons' logs, one per GPU
   */
  public record MpsSettings(String control, Path pipeRoot, Path logRoot) {
    public MpsSettings {
      requireNonNull(control, "control is null");
      requireNonNull(pipeRoot, "pipeRoot is null");
      requireNonNull(logRoot, "logRoot is null");
    }
  }
}
