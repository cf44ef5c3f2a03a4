package io.gantry.deviceagent;

import io.gantry.nodecommon.inventory.DiscoveryException;

/**
 * The device agent's exit statuses beyond picocli's 2 (invalid command line), shared by {@code
 * discover} and {@code serve}.
 */
public final class AgentExitStatus {
  public static final int OK = 0;

  /** No usable NVIDIA GPU: nvidia-smi or NVML is missing, fails, or reports no device. */
  public static final int NO_GPU = 1;

  /** The answer of nvidia-smi or NVML could not be read, or nvidia-smi did not finish in time. */
  public static final int UNREADABLE = 3;

  /** {@code serve}: the API client, MPS or the device plugin sockets cannot be set up. */
  public static final int CANNOT_START = 4;

  private AgentExitStatus() {}

  /** The status a failed discovery ends the command with. */
  public static int of(DiscoveryException e) {
    return e.unreadable() ? UNREADABLE : NO_GPU;
  }
}
