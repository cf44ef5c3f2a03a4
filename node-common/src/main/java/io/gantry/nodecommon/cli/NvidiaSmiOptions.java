package io.gantry.nodecommon.cli;

import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.settings.NvidiaSmiSettings;
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

  /** The settings these options give; a timeout under one second is refused, naming it. */
  public NvidiaSmiSettings settings(CommandLine commandLine) {
    return OptionValues.validated(
        commandLine, () -> new NvidiaSmiSettings(nvidiaSmi, Duration.ofSeconds(timeoutSeconds)));
  }
}
