package io.gantry.deviceagent;

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
import io.gantry.deviceagent.metrics.DeviceAgentMetrics;
import io.gantry.deviceagent.mps.MpsAllocations;
import io.gantry.deviceagent.mps.MpsControl;
import io.gantry.deviceagent.mps.MpsDaemons;
import io.gantry.deviceagent.mps.MpsException;
import io.gantry.deviceagent.mps.MpsPodWatch;
import io.gantry.deviceagent.mps.MpsWatch;
import io.gantry.deviceagent.nodeagent.NodeAgentServer;
import io.gantry.deviceagent.nodeagent.NodeAgentService;
import io.gantry.deviceagent.nodeagent.NodeEventHub;
import io.gantry.gpusharing.inventory.GpuInventory;
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
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the running device agent from its settings and runs it: the device plugins ({@code
 * nvidia.com/gpu} and {@code gantry.io/gpu-share}) registered with the kubelet in device-plugin
 * mode (none in reservation-pods mode, where NVIDIA's device plugin runs), the node-agent API, and
 * every discovery interval the inventory, health changes streamed to the kubelet and the API's
 * watchers, and the inventory published on the Node object, until stopped. Every collaborator that
 * reads the time gets the one {@link Clock} given here, and every one that counts something the one
 * {@link DeviceAgentMetrics} on the registry given here.
 */
public final class DeviceAgentWiring {
  private static final Logger log = LoggerFactory.getLogger(DeviceAgentWiring.class);

  private final DeviceAgentSettings settings;
  private final Clock clock;
  private final NvmlSession.Loader nvmlLoader;
  private final DeviceAgentMetrics metrics;

  /** {@code registry}: where the agent's meters go ({@code /metrics} serves it). */
  public DeviceAgentWiring(
      DeviceAgentSettings settings,
      Clock clock,
      NvmlSession.Loader nvmlLoader,
      MeterRegistry registry) {
    this.settings = requireNonNull(settings, "settings is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.nvmlLoader = requireNonNull(nvmlLoader, "nvmlLoader is null");
    this.metrics = new DeviceAgentMetrics(registry, settings.node().nodeName());
  }

  /**
   * Serves until {@code stopped} is counted down; returns the exit status ({@link AgentExitStatus})
   * after writing why it could not start to {@code err}. {@code serving} runs once the device
   * plugins and the node-agent API are up (the ops endpoint's readiness).
   */
  public int serve(CountDownLatch stopped, PrintWriter err, Runnable serving)
      throws InterruptedException {
    NvidiaSmi smi;
    Optional<NvmlSession> nvml = Optional.empty();
    InventorySource discovery;
    GpuInventory first;
    try {
      // the usage watch reads GPU processes with nvidia-smi whichever source takes the inventory
      smi = settings.nvidiaSmi().locate(settings.pathVariable().orElse(null));
      nvml = settings.discovery().openNvml(nvmlLoader);
      discovery =
          metrics.timed(
              nvml.isPresent() ? new NvmlDiscovery(nvml.get().nvml()) : new GpuDiscovery(smi));
      // The first discovery must work: a node without GPUs has nothing to serve.
      first = discovery.discover();
    } catch (DiscoveryException e) {
      nvml.ifPresent(NvmlSession::close);
      err.println(e.getMessage());
      err.flush();
      return AgentExitStatus.of(e);
    }
    try {
      return serve(smi, nvml, discovery, first, stopped, err, serving);
    } finally {
      nvml.ifPresent(NvmlSession::close);
    }
  }

  private int serve(
      NvidiaSmi smi,
      Optional<NvmlSession> nvml,
      InventorySource discovery,
      GpuInventory first,
      CountDownLatch stopped,
      PrintWriter err,
      Runnable serving)
      throws InterruptedException {
    String node = settings.node().nodeName();
    ApiClient client;
    try {
      client = ApiClients.connect(settings.node().cluster());
      client.setUserAgent(DeviceAgentApiAccess.USER_AGENT);
    } catch (IOException e) {
      err.println("cannot configure the API client: " + e.getMessage());
      err.flush();
      return AgentExitStatus.CANNOT_START;
    }
    NodePods pods = new NodePods(client, node);
    NodeEventHub events = new NodeEventHub(clock, NodeEventHub.DEFAULT_BUFFER_EVENTS);
    OverGrantWatch overGrant =
        new OverGrantWatch(
            new GpuUsageReader(smi, new PodCgroups(settings.procRoot())),
            pods,
            new PodEnforcer(client, node, clock),
            settings.evictOverGrant(),
            events,
            metrics.overGrant());
    Optional<MpsDaemons> daemons;
    try {
      daemons = mpsDaemons();
    } catch (MpsException e) {
      err.println("--mps: " + e.getMessage());
      err.flush();
      return AgentExitStatus.CANNOT_START;
    }
    daemons.ifPresent(metrics::mpsDaemons);
    try (DevicePluginManager plugins =
        new DevicePluginManager(
            settings.devicePluginDirectory(),
            settings.shareSlotsPerGpu(),
            pods,
            settings.deviceNaming(),
            daemons.map(d -> new MpsAllocations(d, events)),
            events,
            metrics)) {
      NodeAgent agent =
          new NodeAgent(
              discovery,
              plugins,
              new NodeInventoryPublisher(client, node),
              overGrant,
              new NodeEvents(client, node, clock),
              daemons.map(d -> new MpsWatch(pods, d)),
              clock);
      agent.apply(first);
      Optional<MpsPodWatch> mpsPods = Optional.empty();
      if (settings.servesDevicePlugins()) {
        plugins.start();
      } else {
        // reservation-pods mode: NVIDIA's device plugin owns nvidia.com/gpu; the plugins here only
        // track health for the inventory and are never registered with the kubelet, so no
        // Allocate starts an MPS daemon: the daemons follow the node's pods as they change
        log.info("gpu sharing through reservation pods: no device plugin is registered");
        if (daemons.isPresent()) {
          mpsPods = Optional.of(MpsPodWatch.start(watchClient(), node, daemons.get()));
        }
      }
      NodeAgentServer api =
          NodeAgentServer.start(
              new NodeAgentService(node, agent::snapshot, events),
              events,
              settings.nodeAgentSocket(),
              settings.nodeAgentPort());
      Optional<XidEventWatch> xids = nvml.flatMap(session -> watchXids(session, agent));
      try {
        log.info("serving node {}", node);
        serving.run();
        long intervalMillis = settings.node().discoveryInterval().toMillis();
        while (!stopped.await(intervalMillis, TimeUnit.MILLISECONDS)) {
          agent.runOnce();
        }
      } finally {
        xids.ifPresent(XidEventWatch::close);
        api.close();
        mpsPods.ifPresent(MpsPodWatch::close);
        daemons.ifPresent(MpsDaemons::stopAll);
      }
      return AgentExitStatus.OK;
    } catch (IOException e) {
      err.println("cannot serve: " + e.getMessage());
      err.flush();
      return AgentExitStatus.CANNOT_START;
    }
  }

  /** A client of its own for a watch: no read timeout, as a watch waits for events. */
  private ApiClient watchClient() throws IOException {
    ApiClient client = ApiClients.connect(settings.node().cluster());
    client.setUserAgent(DeviceAgentApiAccess.USER_AGENT);
    client.setReadTimeout(0);
    return client;
  }

  /** The MPS control daemons with {@code --mps}; empty without. */
  private Optional<MpsDaemons> mpsDaemons() throws MpsException {
    if (settings.mps().isEmpty()) {
      return Optional.empty();
    }
    DeviceAgentSettings.MpsSettings mps = settings.mps().get();
    return Optional.of(
        new MpsDaemons(
            MpsControl.locate(
                mps.control(),
                settings.pathVariable().orElse(null),
                mps.pipeRoot(),
                mps.logRoot(),
                settings.nvidiaSmi().timeout()),
            clock));
  }

  /** XID events through NVML; without them (logged), health comes from discovery alone. */
  private Optional<XidEventWatch> watchXids(NvmlSession nvml, NodeAgent agent) {
    try {
      return Optional.of(XidEventWatch.start(nvml.nvml(), metrics.gpus()::xid, agent::xidError));
    } catch (NvmlException e) {
      log.warn("no XID events, GPU health comes from discovery only: {}", e.getMessage());
      return Optional.empty();
    }
  }
}
