package io.gantry.nodecommon.settings;

import static java.util.Objects.requireNonNull;

import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import java.time.Duration;

/**
 * Which nvidia-smi to run and for how long, validated so a timeout under one second is refused
 * naming its option.
 *
 * @param command a path, or a name looked up on PATH
 * @param timeout the longest one call may take, at least one second
 */
public record NvidiaSmiSettings(String command, Duration timeout) {
  public NvidiaSmiSettings {
    requireNonNull(command, "command is null");
    requireNonNull(timeout, "timeout is null");
    if (timeout.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "--timeout must be at least 1 second, got " + timeout.toSeconds());
    }
  }

  /**
   * The nvidia-smi {@link #command} names, looked up in {@code pathVariable} (null: no PATH).
   *
   * @throws NvidiaSmiException NOT_FOUND when there is none
   */
  public NvidiaSmi locate(String pathVariable) throws NvidiaSmiException {
    return NvidiaSmi.locate(command, pathVariable, timeout);
  }
}
