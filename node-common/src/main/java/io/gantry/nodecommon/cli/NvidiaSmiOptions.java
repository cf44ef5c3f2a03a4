package io.gantry.nodecommon.cli;

import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options saying which nvidia-smi to run and for how long: a picocli mixin shared by every
 * command of the device agent and the DRA driver.
 */
public final class NvidiaSmiOptions {
  @Option(
      names = "--nvidia-smi",
      paramLabel = "PATH",
      defaultValue = NvidiaSmi.DEFAULT_COMMAND,
      description =
          "nvidia-smi to run: a path, or a name looked up on PATH. Default: ${DEFAULT-VALUE}.")
  private String nvidiaSmi;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description = "Longest each nvidia-smi call may take. Default: ${DEFAULT-VALUE}.")
  private int timeoutSeconds;

  /** Refuses a timeout under one second, naming the option. */
  public void validate(CommandLine commandLine) {
    if (timeoutSeconds < 1) {
      throw new CommandLine.ParameterException(
          commandLine, "--timeout must be at least 1 second, got " + timeoutSeconds);
    }
  }

  /** The longest one call may take. */
  public Duration timeout() {
    return Duration.ofSeconds(timeoutSeconds);
  }

  /**
   * The nvidia-smi these options name, looked up in {@code pathVariable}.
   *
   * @throws NvidiaSmiException NOT_FOUND when there is none
   */
  public NvidiaSmi locate(String pathVariable) throws NvidiaSmiException {
    return NvidiaSmi.locate(nvidiaSmi, pathVariable, timeout());
  }
}
