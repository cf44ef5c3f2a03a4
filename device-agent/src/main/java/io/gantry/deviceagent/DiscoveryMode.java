package io.gantry.deviceagent;

import io.gantry.nodecommon.nvml.NvmlException;
import io.gantry.nodecommon.nvml.NvmlSession;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the inventory comes from ({@code --discovery}): NVML, nvidia-smi, or {@code auto}, which
 * uses NVML when libnvidia-ml.so.1 loads and initialises, and otherwise says so in the log and uses
 * nvidia-smi.
 */
public enum DiscoveryMode {
  AUTO,
  NVML,
  NVIDIA_SMI;

  private static final Logger log = LoggerFactory.getLogger(DiscoveryMode.class);

  /**
   * An initialised NVML for this mode: empty for nvidia-smi, and for auto when NVML does not load
   * or initialise (logged as the fallback).
   *
   * @throws NvmlException for {@code nvml} when NVML does not load or initialise
   */
  public Optional<NvmlSession> openNvml(NvmlSession.Loader loader) throws NvmlException {
    return switch (this) {
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
