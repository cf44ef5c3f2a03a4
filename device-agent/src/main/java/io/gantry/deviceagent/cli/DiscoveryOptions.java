package io.gantry.deviceagent.cli;

import io.gantry.nodecommon.nvml.NvmlException;
import io.gantry.nodecommon.nvml.NvmlSession;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --discovery auto|nvml|nvidia-smi}: whether the inventory comes from NVML or nvidia-smi.
 * {@code auto} uses NVML when libnvidia-ml.so.1 loads and initialises, and otherwise says so in the
 * log and uses nvidia-smi.
 */
final class DiscoveryOptions {
  private static final Logger log = LoggerFactory.getLogger(DiscoveryOptions.class);

  enum Mode {
    AUTO,
    NVML,
    NVIDIA_SMI
  }

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
  Mode mode(CommandLine commandLine) {
    return switch (discovery) {
      case "auto" -> Mode.AUTO;
      case "nvml" -> Mode.NVML;
      case "nvidia-smi" -> Mode.NVIDIA_SMI;
      default ->
          throw new CommandLine.ParameterException(
              commandLine, "--discovery must be auto, nvml or nvidia-smi, got '" + discovery + "'");
    };
  }

  /**
   * An initialised NVML for {@code mode}: empty for nvidia-smi, and for auto when NVML does not
   * load or initialise (logged as the fallback).
   *
   * @throws NvmlException for {@code nvml} when NVML does not load or initialise
   */
  static Optional<NvmlSession> openNvml(Mode mode, NvmlSession.Loader loader) throws NvmlException {
    return switch (mode) {
      case NVIDIA_SMI -> Optional.empty();
      case NVML -> Optional.of(NvmlSession.open(loader));
      case AUTO -> nvmlIfItLoads(loader);
    };
  }

  private static Optional<NvmlSession> nvmlIfItLoads(NvmlSession.Loader loader) {
    try {
      NvmlSession session = NvmlSession.open(loader);
      log.info("discovery uses NVML");
      return Optional.of(session);
    } catch (NvmlException e) {
      log.warn("discovery falls back to nvidia-smi: {}", e.getMessage());
      return Optional.empty();
    }
  }
}
