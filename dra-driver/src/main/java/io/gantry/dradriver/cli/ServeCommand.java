package io.gantry.dradriver.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.dradriver.DraDriver;
import io.gantry.dradriver.DriverPaths;
import io.gantry.dradriver.kube.DraDriverApiAccess;
import io.gantry.nodecommon.cli.NodeOptions;
import io.gantry.nodecommon.cli.NvidiaSmiOptions;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry-dra-driver serve}: the DaemonSet's entry point. Publishes the node's GPUs as a
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
  /** Exit status when nvidia-smi cannot take the first inventory. */
  static final int NO_INVENTORY = 3;

  /** Exit status when the API client, the checkpoint or a socket cannot be set up. */
  static final int CANNOT_START = 4;

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
    String node = nodeOptions.nodeName(environment, spec.commandLine());
    Duration discoveryInterval = nodeOptions.discoveryInterval(spec.commandLine());
    smiOptions.validate(spec.commandLine());
    PrintWriter err = spec.commandLine().getErr();
    ApiClient client;
    try {
      client = ApiClients.connect(nodeOptions.kubeconfig());
      client.setUserAgent(DraDriverApiAccess.USER_AGENT);
    } catch (IOException e) {
      err.println("cannot configure the API client: " + e.getMessage());
      err.flush();
      return CANNOT_START;
    }
    DriverPaths paths = new DriverPaths(pluginRegistryDirectory, pluginDirectory, cdiDirectory);
    DraDriver driver;
    try {
      driver =
          DraDriver.start(
              node,
              paths,
              new GpuDiscovery(smiOptions.locate(environment.get("PATH"))),
              client,
              discoveryInterval);
    } catch (NvidiaSmiException e) {
      err.println("cannot take the GPU inventory: " + e.getMessage());
      err.flush();
      return NO_INVENTORY;
    } catch (IOException e) {
      err.println("cannot start: " + e.getMessage());
      err.flush();
      return CANNOT_START;
    }
    try {
      stopped.await();
      return 0;
    } finally {
      driver.close();
    }
  }
}
