package io.gantry.deviceagent.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.DeviceAgentSettings;
import io.gantry.deviceagent.DeviceAgentWiring;
import io.gantry.deviceagent.DiscoveryMode;
import io.gantry.deviceagent.deviceplugin.DevicePluginManager;
import io.gantry.deviceagent.mps.MpsControl;
import io.gantry.deviceagent.nodeagent.NodeAgentServer;
import io.gantry.gpusharing.DeviceNaming;
import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.nodecommon.cli.LogFormatOptions;
import io.gantry.nodecommon.cli.NodeOptions;
import io.gantry.nodecommon.cli.NvidiaSmiOptions;
import io.gantry.nodecommon.cli.OpsOptions;
import io.gantry.nodecommon.cli.OptionValues;
import io.gantry.nodecommon.nvml.NvmlSession;
import io.gantry.nodecommon.ops.OpsEndpoint;
import io.gantry.nodecommon.settings.NodeSettings;
import io.gantry.nodecommon.settings.NvidiaSmiSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry-device-agent serve}: the DaemonSet's entry point. Parses the options into {@link
 * DeviceAgentSettings} and runs {@link DeviceAgentWiring}, which serves the device plugins, the
 * node-agent API and the discovery loop until the process is stopped.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "Run the node agent (the DaemonSet's entry point): device plugins for the kubelet, the"
            + " node's GPU inventory on its Node object, and the node-agent API (gantry.nodeagent.v1)"
            + " on a Unix socket.")
final class ServeCommand implements Callable<Integer> {
  @Option(
      names = "--device-plugin-dir",
      paramLabel = "DIR",
      defaultValue = DevicePluginManager.DEFAULT_DIRECTORY,
      description =
          "The kubelet's device plugin directory (holds kubelet.sock). Default: ${DEFAULT-VALUE}.")
  Path devicePluginDirectory;

  @Option(
      names = "--share-slots-per-gpu",
      paramLabel = "N",
      defaultValue = "100",
      description =
          "gantry.io/gpu-share devices offered per GPU: how many fraction pods one GPU can hold"
              + " (portions are hundredths, so at most 100 fit). Default: ${DEFAULT-VALUE}.")
  int shareSlotsPerGpu;

  @Option(
      names = "--device-naming",
      paramLabel = "uuid|cdi",
      defaultValue = "uuid",
      description =
          "How containers are given their GPUs: uuid (NVIDIA_VISIBLE_DEVICES by UUID, for the"
              + " NVIDIA container runtime) or cdi (CDI names k8s.device-plugin.nvidia.com/gpu=<uuid>"
              + " in the env and as CDI devices, for CDI-enabled runtimes). Default: ${DEFAULT-VALUE}.")
  String deviceNaming;

  @Option(
      names = "--gpu-sharing-mode",
      paramLabel = "reservation-pods|device-plugin",
      defaultValue = "reservation-pods",
      description =
          "reservation-pods: NVIDIA's device plugin owns nvidia.com/gpu and Gantry's binder holds"
              + " shared GPUs with reservation pods, so the agent registers no device plugin;"
              + " device-plugin: the agent is the device plugin for nvidia.com/gpu and"
              + " gantry.io/gpu-share (do not run NVIDIA's on the node). Default: ${DEFAULT-VALUE}.")
  String gpuSharingMode;

  @Option(
      names = "--proc-root",
      paramLabel = "DIR",
      defaultValue = "/proc",
      description =
          "Where the host's processes are (their cgroups say which pod a GPU process belongs to);"
              + " the agent runs in the host PID namespace. Default: ${DEFAULT-VALUE}.")
  Path procRoot;

  @Option(
      names = "--evict-over-grant",
      description =
          "Evict a pod whose GPU memory use exceeds its grant on a shared GPU (an event is always"
              + " recorded). Default: off.")
  boolean evictOverGrant;

  @Option(
      names = "--mps",
      description =
          "Run an MPS control daemon for each GPU that MPS pods use, with the contract's limits."
              + " Default: off (MPS pods get their environment and pipe mount only).")
  boolean mps;

  @Option(
      names = "--mps-control",
      paramLabel = "PATH",
      defaultValue = MpsControl.DEFAULT_COMMAND,
      description =
          "The MPS control program: a path, or a name looked up on PATH. Default:"
              + " ${DEFAULT-VALUE}.")
  String mpsControl;

  @Option(
      names = "--mps-pipe-root",
      paramLabel = "DIR",
      defaultValue = GpuEnforcement.MPS_PIPE_DIRECTORY,
      description =
          "Host directory holding one MPS pipe directory per GPU (<DIR>/<uuid>), mounted into MPS"
              + " containers at the contract's pipe directory. Default: ${DEFAULT-VALUE}.")
  Path mpsPipeRoot;

  @Option(
      names = "--mps-log-root",
      paramLabel = "DIR",
      defaultValue = "/var/log/nvidia-mps",
      description = "Directory of the MPS daemons' logs, one per GPU. Default: ${DEFAULT-VALUE}.")
  Path mpsLogRoot;

  @Option(
      names = "--node-agent-socket",
      paramLabel = "PATH",
      defaultValue = NodeAgentServer.DEFAULT_SOCKET,
      description =
          "Unix socket of the node-agent API (GetNode, WatchEvents); its directory is created when"
              + " missing. Default: ${DEFAULT-VALUE}.")
  Path nodeAgentSocket;

  @Option(
      names = "--node-agent-port",
      paramLabel = "PORT",
      description =
          "Also serve the node-agent API on this TCP port, plaintext and without authentication, on"
              + " every interface. Default: off (the Unix socket only).")
  Integer nodeAgentPort;

  @CommandLine.Mixin NodeOptions nodeOptions;

  @CommandLine.Mixin NvidiaSmiOptions smiOptions;

  @CommandLine.Mixin DiscoveryOptions discoveryOptions;

  @CommandLine.Mixin OpsOptions opsOptions;

  @CommandLine.Mixin LogFormatOptions logFormat;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;
  private final CountDownLatch stopped;
  private final Consumer<CountDownLatch> onStop;
  private final NvmlSession.Loader nvmlLoader;
  private final Clock clock;

  /**
   * {@code stopped} ends the serve loop when counted down: {@code onStop} arranges that (the
   * process's SIGTERM and SIGINT; tests count it down themselves), so a stop is graceful and exits
   * 0; {@code clock} is the one every part of the agent reads the time from.
   */
  ServeCommand(
      Map<String, String> environment,
      CountDownLatch stopped,
      NvmlSession.Loader nvmlLoader,
      Clock clock,
      Consumer<CountDownLatch> onStop) {
    this.environment = requireNonNull(environment, "environment is null");
    this.stopped = requireNonNull(stopped, "stopped is null");
    this.nvmlLoader = requireNonNull(nvmlLoader, "nvmlLoader is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.onStop = requireNonNull(onStop, "onStop is null");
  }

  @Override
  public Integer call() throws InterruptedException {
    NodeSettings node = nodeOptions.settings(environment, spec.commandLine());
    NvidiaSmiSettings smi = smiOptions.settings(spec.commandLine());
    DiscoveryMode mode = discoveryOptions.mode(spec.commandLine());
    DeviceNaming naming =
        switch (deviceNaming) {
          case "uuid" -> DeviceNaming.UUID;
          case "cdi" -> DeviceNaming.CDI;
          default ->
              throw new CommandLine.ParameterException(
                  spec.commandLine(),
                  "--device-naming must be uuid or cdi, got '" + deviceNaming + "'");
        };
    boolean devicePlugins =
        switch (gpuSharingMode) {
          case "reservation-pods" -> false;
          case "device-plugin" -> true;
          default ->
              throw new CommandLine.ParameterException(
                  spec.commandLine(),
                  "--gpu-sharing-mode must be reservation-pods or device-plugin, got '"
                      + gpuSharingMode
                      + "'");
        };
    DeviceAgentSettings settings =
        OptionValues.validated(
            spec.commandLine(),
            () ->
                new DeviceAgentSettings(
                    node,
                    smi,
                    mode,
                    Optional.ofNullable(environment.get("PATH")),
                    devicePluginDirectory,
                    shareSlotsPerGpu,
                    naming,
                    procRoot,
                    evictOverGrant,
                    mps
                        ? Optional.of(
                            new DeviceAgentSettings.MpsSettings(
                                mpsControl, mpsPipeRoot, mpsLogRoot))
                        : Optional.empty(),
                    nodeAgentSocket,
                    nodeAgentPort == null ? OptionalInt.empty() : OptionalInt.of(nodeAgentPort),
                    devicePlugins));
    onStop.accept(stopped);
    Optional<OpsEndpoint> ops = opsOptions.start(spec.commandLine());
    // without --http-port nothing serves the meters; they are kept where no one reads them
    MeterRegistry registry =
        ops.<MeterRegistry>map(OpsEndpoint::registry).orElseGet(SimpleMeterRegistry::new);
    try {
      return new DeviceAgentWiring(settings, clock, nvmlLoader, registry)
          .serve(stopped, spec.commandLine().getErr(), () -> ops.ifPresent(OpsEndpoint::markReady));
    } finally {
      ops.ifPresent(OpsEndpoint::close);
    }
  }
}
