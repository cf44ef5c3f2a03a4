package io.gantry.dradriver.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.dradriver.DraDriverSettings;
import io.gantry.dradriver.DraDriverWiring;
import io.gantry.dradriver.DriverPaths;
import io.gantry.nodecommon.cli.LogFormatOptions;
import io.gantry.nodecommon.cli.NodeOptions;
import io.gantry.nodecommon.cli.NvidiaSmiOptions;
import io.gantry.nodecommon.cli.OpsOptions;
import io.gantry.nodecommon.ops.OpsEndpoint;
import io.gantry.nodecommon.settings.NodeSettings;
import io.gantry.nodecommon.settings.NvidiaSmiSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry-dra-driver serve}: the DaemonSet's entry point. Parses the options into {@link
 * DraDriverSettings} and runs {@link DraDriverWiring}, which publishes the node's GPUs as a
 * ResourceSlice, serves the kubelet's DRA calls and registers with the kubelet's plugin watcher,
 * until the process is stopped.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "Run the DRA driver gpu.gantry.io (the DaemonSet's entry point): the node's GPUs as a"
            + " ResourceSlice, NodePrepareResources / NodeUnprepareResources for the kubelet.")
final class ServeCommand implements Callable<Integer> {
  @Option(
      names = "--plugin-registry-dir",
      paramLabel = "DIR",
      defaultValue = DriverPaths.DEFAULT_PLUGIN_REGISTRY,
      description =
          "The kubelet's plugin registry, watched by its plugin watcher; the registration socket"
              + " gpu.gantry.io-reg.sock goes here. Default: ${DEFAULT-VALUE}.")
  Path pluginRegistryDirectory;

  @Option(
      names = "--plugin-dir",
      paramLabel = "DIR",
      defaultValue = DriverPaths.DEFAULT_PLUGIN_DIRECTORY,
      description =
          "The driver's directory: its DRA socket dra.sock (the kubelet dials this path) and the"
              + " checkpoint checkpoint.json. Default: ${DEFAULT-VALUE}.")
  Path pluginDirectory;

  @Option(
      names = "--cdi-dir",
      paramLabel = "DIR",
      defaultValue = DriverPaths.DEFAULT_CDI_DIRECTORY,
      description =
          "Where the per-claim CDI spec files are written; the container runtime's CDI spec"
              + " directory. Default: ${DEFAULT-VALUE}.")
  Path cdiDirectory;

  @CommandLine.Mixin NodeOptions nodeOptions;

  @CommandLine.Mixin NvidiaSmiOptions smiOptions;

  @CommandLine.Mixin OpsOptions opsOptions;

  @CommandLine.Mixin LogFormatOptions logFormat;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;
  private final CountDownLatch stopped;

  /** {@code stopped} ends serving when counted down (tests; a process runs until killed). */
  ServeCommand(Map<String, String> environment, CountDownLatch stopped) {
    this.environment = requireNonNull(environment, "environment is null");
    this.stopped = requireNonNull(stopped, "stopped is null");
  }

  @Override
  public Integer call() throws InterruptedException {
    NodeSettings node = nodeOptions.settings(environment, spec.commandLine());
    NvidiaSmiSettings smi = smiOptions.settings(spec.commandLine());
    DraDriverSettings settings =
        new DraDriverSettings(
            node,
            smi,
            Optional.ofNullable(environment.get("PATH")),
            new DriverPaths(pluginRegistryDirectory, pluginDirectory, cdiDirectory));
    Optional<OpsEndpoint> ops = opsOptions.start(spec.commandLine());
    // without --http-port nothing serves the meters; they are kept where no one reads them
    MeterRegistry registry =
        ops.<MeterRegistry>map(OpsEndpoint::registry).orElseGet(SimpleMeterRegistry::new);
    try {
      return new DraDriverWiring(settings, registry)
          .serve(stopped, spec.commandLine().getErr(), () -> ops.ifPresent(OpsEndpoint::markReady));
    } finally {
      ops.ifPresent(OpsEndpoint::close);
    }
  }
}
