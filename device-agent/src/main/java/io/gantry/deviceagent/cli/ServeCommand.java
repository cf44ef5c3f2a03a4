package io.gantry.deviceagent.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.agent.NodeAgent;
import io.gantry.deviceagent.deviceplugin.DevicePluginManager;
import io.gantry.deviceagent.enforcement.GpuUsageReader;
import io.gantry.deviceagent.enforcement.OverGrantWatch;
import io.gantry.deviceagent.enforcement.PodCgroups;
import io.gantry.deviceagent.kube.DeviceAgentApiAccess;
import io.gantry.deviceagent.kube.NodeEvents;
import io.gantry.deviceagent.kube.NodeInventoryPublisher;
import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.kube.PodEnforcer;
import io.gantry.deviceagent.mps.MpsAllocations;
import io.gantry.deviceagent.mps.MpsControl;
import io.gantry.deviceagent.mps.MpsDaemons;
import io.gantry.deviceagent.mps.MpsException;
import io.gantry.deviceagent.mps.MpsWatch;
import io.gantry.deviceagent.nodeagent.NodeAgentServer;
import io.gantry.deviceagent.nodeagent.NodeAgentService;
import io.gantry.deviceagent.nodeagent.NodeEventHub;
import io.gantry.gpusharing.DeviceNaming;
import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.cli.NodeOptions;
import io.gantry.nodecommon.cli.NvidiaSmiOptions;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.discovery.InventorySource;
import io.gantry.nodecommon.inventory.DiscoveryException;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvml.NvmlDiscovery;
import io.gantry.nodecommon.nvml.NvmlException;
import io.gantry.nodecommon.nvml.NvmlSession;
import io.gantry.nodecommon.nvml.XidEventWatch;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry-device-agent serve}: the DaemonSet's entry point. Serves the device plugins ({@code
 * nvidia.com/gpu} and {@code gantry.io/gpu-share}), registers them with the kubelet, serves the
 * node-agent API, and every discovery interval takes the inventory, streams health changes to the
 * kubelet and the node-agent API's watchers and publishes the inventory on the Node object, until
 * the process is stopped.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "Run the node agent (the DaemonSet's entry point): device plugins for the kubelet, the"
            + " node's GPU inventory on its Node object, and the node-agent API (gantry.nodeagent.v1)"
            + " on a Unix socket.")
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  /** Exit status when the API client or the device plugin sockets cannot be set up. */
  static final int CANNOT_START = 4;

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

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;
  private final CountDownLatch stopped;
  private final NvmlSession.Loader nvmlLoader;

  /** {@code stopped} ends the serve loop when counted down (tests; a process runs until killed). */
  ServeCommand(
      Map<String, String> environment, CountDownLatch stopped, NvmlSession.Loader nvmlLoader) {
    this.environment = requireNonNull(environment, "environment is null");
    this.stopped = requireNonNull(stopped, "stopped is null");
    this.nvmlLoader = requireNonNull(nvmlLoader, "nvmlLoader is null");
  }

  @Override
  public Integer call() throws InterruptedException {
    String node = nodeOptions.nodeName(environment, spec.commandLine());
    Duration discoveryInterval = nodeOptions.discoveryInterval(spec.commandLine());
    if (nodeAgentPort != null && (nodeAgentPort < 1 || nodeAgentPort > 65_535)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--node-agent-port must be in 1..65535, got " + nodeAgentPort);
    }
    smiOptions.validate(spec.commandLine());
    DiscoveryOptions.Mode mode = discoveryOptions.mode(spec.commandLine());
    if (shareSlotsPerGpu < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--share-slots-per-gpu must be at least 1, got " + shareSlotsPerGpu);
    }
    DeviceNaming naming =
        switch (deviceNaming) {
          case "uuid" -> DeviceNaming.UUID;
          case "cdi" -> DeviceNaming.CDI;
          default ->
              throw new CommandLine.ParameterException(
                  spec.commandLine(),
                  "--device-naming must be uuid or cdi, got '" + deviceNaming + "'");
        };
    if (!Files.isDirectory(devicePluginDirectory)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--device-plugin-dir " + devicePluginDirectory + " is not a directory");
    }
    PrintWriter err = spec.commandLine().getErr();
    NvidiaSmi smi;
    Optional<NvmlSession> nvml = Optional.empty();
    InventorySource discovery;
    GpuInventory first;
    try {
      // the usage watch reads GPU processes with nvidia-smi whichever source takes the inventory
      smi = smiOptions.locate(environment.get("PATH"));
      nvml = DiscoveryOptions.openNvml(mode, nvmlLoader);
      discovery = nvml.isPresent() ? new NvmlDiscovery(nvml.get().nvml()) : new GpuDiscovery(smi);
      // The first discovery must work: a node without GPUs has nothing to serve.
      first = discovery.discover();
    } catch (DiscoveryException e) {
      nvml.ifPresent(NvmlSession::close);
      err.println(e.getMessage());
      err.flush();
      return DiscoverCommand.exitStatus(e);
    }
    try {
      return serve(node, discoveryInterval, naming, smi, nvml, discovery, first, err);
    } finally {
      nvml.ifPresent(NvmlSession::close);
    }
  }

  private int serve(
      String node,
      Duration discoveryInterval,
      DeviceNaming naming,
      NvidiaSmi smi,
      Optional<NvmlSession> nvml,
      InventorySource discovery,
      GpuInventory first,
      PrintWriter err)
      throws InterruptedException {
    ApiClient client;
    try {
      client = ApiClients.connect(nodeOptions.kubeconfig());
      client.setUserAgent(DeviceAgentApiAccess.USER_AGENT);
    } catch (IOException e) {
      err.println("cannot configure the API client: " + e.getMessage());
      err.flush();
      return CANNOT_START;
    }
    NodePods pods = new NodePods(client, node);
    NodeEventHub events = new NodeEventHub(Clock.systemUTC(), NodeEventHub.DEFAULT_BUFFER_EVENTS);
    OverGrantWatch overGrant =
        new OverGrantWatch(
            new GpuUsageReader(smi, new PodCgroups(procRoot)),
            pods,
            new PodEnforcer(client, node, Clock.systemUTC()),
            evictOverGrant,
            events);
    Optional<MpsDaemons> daemons = Optional.empty();
    if (mps) {
      try {
        daemons =
            Optional.of(
                new MpsDaemons(
                    MpsControl.locate(
                        mpsControl,
                        environment.get("PATH"),
                        mpsPipeRoot,
                        mpsLogRoot,
                        smiOptions.timeout()),
                    Clock.systemUTC()));
      } catch (MpsException e) {
        err.println("--mps: " + e.getMessage());
        err.flush();
        return CANNOT_START;
      }
    }
    try (DevicePluginManager plugins =
        new DevicePluginManager(
            devicePluginDirectory,
            shareSlotsPerGpu,
            pods,
            naming,
            daemons.map(d -> new MpsAllocations(d, events)),
            events)) {
      NodeAgent agent =
          new NodeAgent(
              discovery,
              plugins,
              new NodeInventoryPublisher(client, node),
              overGrant,
              new NodeEvents(client, node, Clock.systemUTC()),
              daemons.map(d -> new MpsWatch(pods, d)),
              Clock.systemUTC());
      agent.apply(first);
      plugins.start();
      NodeAgentServer api =
          NodeAgentServer.start(
              new NodeAgentService(node, agent::snapshot, events),
              events,
              nodeAgentSocket,
              nodeAgentPort == null ? OptionalInt.empty() : OptionalInt.of(nodeAgentPort));
      Optional<XidEventWatch> xids = nvml.flatMap(session -> watchXids(session, agent));
      try {
        log.info("serving node {}", node);
        while (!stopped.await(discoveryInterval.toMillis(), TimeUnit.MILLISECONDS)) {
          agent.runOnce();
        }
      } finally {
        xids.ifPresent(XidEventWatch::close);
        api.close();
        daemons.ifPresent(MpsDaemons::stopAll);
      }
      return 0;
    } catch (IOException e) {
      err.println("cannot serve: " + e.getMessage());
      err.flush();
      return CANNOT_START;
    }
  }

  /** XID events through NVML; without them (logged), health comes from discovery alone. */
  private static Optional<XidEventWatch> watchXids(NvmlSession nvml, NodeAgent agent) {
    try {
      return Optional.of(XidEventWatch.start(nvml.nvml(), agent::xidError));
    } catch (NvmlException e) {
      log.warn("no XID events, GPU health comes from discovery only: {}", e.getMessage());
      return Optional.empty();
    }
  }
}
