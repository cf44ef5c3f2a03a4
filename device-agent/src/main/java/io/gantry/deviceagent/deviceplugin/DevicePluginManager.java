package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.metrics.DeviceAgentMetrics;
import io.gantry.deviceagent.metrics.GpuMetrics;
import io.gantry.deviceagent.mps.MpsAllocations;
import io.gantry.gpusharing.DeviceNaming;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.proto.uds.UnixSocketServer;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's device plugins: {@value ResourceDevices#WHOLE_GPU} on {@code gantry-gpu.sock} and
 * {@value ResourceDevices#GPU_SHARE} on {@code gantry-gpu-share.sock}, both allocating through the
 * {@code gantry.io/gpu-allocation} contract ({@link ContractAllocator}), in the kubelet's device
 * plugin directory. {@link #start} serves and registers them; each {@link #update} turns a
 * discovery into device lists (a list that changed is streamed to the kubelet); whenever {@code
 * kubelet.sock} is created again the plugins serve again on fresh sockets and re-register.
 * Thread-safe.
 */
public final class DevicePluginManager implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DevicePluginManager.class);

  /** The kubelet's registration socket in the device plugin directory. */
  public static final String KUBELET_SOCKET = "kubelet.sock";

  /** The kubelet's device plugin directory on a node. */
  public static final String DEFAULT_DIRECTORY = "/var/lib/kubelet/device-plugins";

  /** One resource's plugin: what it serves and where. */
  private static final class Plugin {
    final String resourceName;
    final String socketName;
    final DeviceListFeed feed = new DeviceListFeed();
    final DevicePluginService service;
    UnixSocketServer server;

    Plugin(
        String resourceName,
        String socketName,
        ContainerAllocator allocator,
        Optional<DevicePreference> preference,
        DeviceAgentMetrics metrics) {
      this.resourceName = resourceName;
      this.socketName = socketName;
      this.service =
          new DevicePluginService(resourceName, feed, allocator, preference, metrics.allocations());
    }
  }

  private final Path directory;
  private final int slotsPerGpu;
  private final Plugin wholeGpu;
  private final Plugin gpuShare;
  private final CurrentInventory inventory = new CurrentInventory();
  private final GpuHealthTracker tracker;
  private final GpuMetrics metrics;
  private KubeletSocketWatcher watcher;

  /**
   * Plugins in {@code directory} whose {@code Allocate} reads and writes pods through {@code pods},
   * names devices for the runtime with {@code naming} and, with {@code mps}, gives MPS pods their
   * GPU's MPS control daemon; every GPU health change they report goes to {@code health}, and the
   * GPUs and their health, and every {@code Allocate}, to {@code metrics}.
   *
   * @param slotsPerGpu shared slots per GPU (at least 1)
   */
  public DevicePluginManager(
      Path directory,
      int slotsPerGpu,
      NodePods pods,
      DeviceNaming naming,
      Optional<MpsAllocations> mps,
      GpuHealthListener health,
      DeviceAgentMetrics metrics) {
    this.directory = requireNonNull(directory, "directory is null");
    if (slotsPerGpu < 1) {
      throw new IllegalArgumentException("slotsPerGpu must be at least 1, got " + slotsPerGpu);
    }
    this.slotsPerGpu = slotsPerGpu;
    this.tracker = new GpuHealthTracker(health);
    this.metrics = metrics.gpus();
    ContractAllocator whole = ContractAllocator.wholeGpus(pods, inventory, naming);
    // whole GPUs: the kubelet picks the devices, so it is asked to prefer the scheduler's choice;
    // shared slots: the pod's GPU groups decide, whichever slot the kubelet picks
    this.wholeGpu =
        new Plugin(
            ResourceDevices.WHOLE_GPU, "gantry-gpu.sock", whole, Optional.of(whole), metrics);
    this.gpuShare =
        new Plugin(
            ResourceDevices.GPU_SHARE,
            "gantry-gpu-share.sock",
            ContractAllocator.sharedGpus(pods, inventory, naming, mps),
            Optional.empty(),
            metrics);
  }

  /**
   * Serves every plugin, registers it with the kubelet, and watches for kubelet restarts. A kubelet
   * that is not there yet is not an error: registration happens when its socket appears.
   *
   * @throws IOException when a plugin socket cannot be served or the directory cannot be watched
   */
  public synchronized void start() throws IOException {
    watcher = KubeletSocketWatcher.start(directory.resolve(KUBELET_SOCKET), this::kubeletRestarted);
    for (Plugin p : plugins()) {
      serve(p);
      register(p);
    }
  }

  /** The device lists after a discovery that returned {@code inventory}. */
  public void update(GpuInventory inventory) {
    this.inventory.set(inventory);
    metrics.discovered(inventory);
    publish(tracker.update(inventory));
  }

  /** The device lists after a failed discovery: every GPU unhealthy. */
  public void discoveryFailed(String why) {
    publish(tracker.discoveryFailed(why));
  }

  /**
   * The latest inventory with each GPU's health as the kubelet hears it (every GPU unhealthy while
   * discovery fails); empty before the first {@link #update}.
   */
  public Optional<GpuInventory> reportedInventory() {
    return tracker.reported();
  }

  @Override
  public synchronized void close() {
    if (watcher != null) {
      watcher.close();
    }
    for (Plugin p : plugins()) {
      stop(p);
    }
  }

  private void publish(List<TrackedGpu> gpus) {
    wholeGpu.feed.publish(ResourceDevices.wholeGpus(gpus));
    gpuShare.feed.publish(ResourceDevices.shareSlots(gpus, slotsPerGpu));
    metrics.health(
        gpus.stream()
            .map(g -> new GpuMetrics.GpuHealthRow(g.uuid(), g.index(), g.healthy()))
            .toList());
  }

  private synchronized void kubeletRestarted() {
    for (Plugin p : plugins()) {
      stop(p);
      try {
        serve(p);
      } catch (IOException e) {
        log.error("cannot serve {} again after a kubelet restart", p.resourceName, e);
        continue;
      }
      register(p);
    }
  }

  private void serve(Plugin p) throws IOException {
    p.server = UnixSocketServer.start(directory.resolve(p.socketName), List.of(p.service));
    log.info("serving {} on {}", p.resourceName, p.server.socket());
  }

  private void stop(Plugin p) {
    p.feed.endAll();
    if (p.server != null) {
      p.server.close();
      p.server = null;
    }
  }

  private void register(Plugin p) {
    try {
      KubeletRegistrar.register(directory.resolve(KUBELET_SOCKET), p.socketName, p.resourceName);
      log.info("registered {} with the kubelet", p.resourceName);
    } catch (StatusRuntimeException e) {
      log.warn(
          "registering {} with the kubelet failed (retried when kubelet.sock is created): {}",
          p.resourceName,
          e.getStatus());
    }
  }

  private ImmutableList<Plugin> plugins() {
    return ImmutableList.of(wholeGpu, gpuShare);
  }
}
