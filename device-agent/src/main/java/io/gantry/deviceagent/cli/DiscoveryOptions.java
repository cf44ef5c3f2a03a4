package io.gantry.deviceagent.cli;

import io.gantry.deviceagent.DiscoveryMode;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --discovery auto|nvml|nvidia-smi}: whether the inventory comes from NVML or nvidia-smi.
 */
final class DiscoveryOptions {
  @Option(
      names = "--discovery",
      paramLabel = "auto|nvml|nvidia-smi",
      defaultValue = "auto",
      description =
          "Where the inventory comes from: nvml (libnvidia-ml.so.1; fails without it),"
              + " nvidia-smi, or auto (NVML when it loads, else nvidia-smi). Default:"
              + " ${DEFAULT-VALUE}.")
  String discovery;

  /** The mode, or a ParameterException naming the option. */
  DiscoveryMode mode(CommandLine commandLine) {
    return switch (discovery) {
      case "auto" -> DiscoveryMode.AUTO;
      case "nvml" -> DiscoveryMode.NVML;
      case "nvidia-smi" -> DiscoveryMode.NVIDIA_SMI;
      default ->
          throw new CommandLine.ParameterException(
              commandLine, "--discovery must be auto, nvml or nvidia-smi, got '" + discovery + "'");
    };
  }
}
