package io.gantry.nodecommon.cli;

import io.gantry.nodecommon.ops.OpsEndpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --http-port}: where a node DaemonSet serves {@code /metrics}, {@code /healthz} and {@code
 * /readyz} ({@link OpsEndpoint}). A picocli mixin shared by the device agent and the DRA driver.
 */
public final class OpsOptions {
  @Option(
      names = "--http-port",
      paramLabel = "PORT",
      description =
          "Serve /metrics, /healthz and /readyz over HTTP on this port, on every interface (the"
              + " kubelet probes the pod's IP). Default: off.")
  private Integer httpPort;

  /**
   * The endpoint on {@code --http-port}, started; empty without the option. A port out of range or
   * in use is refused naming the option.
   */
  public Optional<OpsEndpoint> start(CommandLine commandLine) {
    if (httpPort == null) {
      return Optional.empty();
    }
    if (httpPort < 1 || httpPort > 65535) {
      throw new CommandLine.ParameterException(
          commandLine, "--http-port must be between 1 and 65535, got " + httpPort);
    }
    try {
      return Optional.of(OpsEndpoint.start(new InetSocketAddress(httpPort)));
    } catch (IOException e) {
      throw new CommandLine.ParameterException(
          commandLine, "--http-port " + httpPort + ": cannot listen: " + e.getMessage());
    }
  }
}
