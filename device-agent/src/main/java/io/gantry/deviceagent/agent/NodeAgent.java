package io.gantry.deviceagent.agent;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.deviceplugin.DevicePluginManager;
import io.gantry.deviceagent.enforcement.OverGrantWatch;
import io.gantry.deviceagent.kube.NodeEvents;
import io.gantry.deviceagent.kube.NodeInventoryPublisher;
import io.gantry.deviceagent.mps.MpsWatch;
import io.gantry.deviceagent.nodeagent.InventorySnapshot;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.discovery.InventorySource;
import io.gantry.nodecommon.inventory.DiscoveryException;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.gantry.nodecommon.nvml.XidError;
import io.kubernetes.client.openapi.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One round of the DaemonSet's work, run every discovery interval by {@code serve}: take the
 * inventory, hand it to the device plugins (health changes reach the kubelet) and publish it on the
 * Node object. A failed discovery makes every GPU unhealthy for the kubelet and leaves the
 * published inventory as it was; a failed publish is retried in the next round. A critical XID
 * ({@link #xidError}) makes its GPU unhealthy at once, in the device lists and the published
 * inventory, and records a Warning event on the Node. {@link #snapshot} is what the node-agent
 * API's {@code GetNode} answers. Thread-safe: XIDs arrive on NVML's event thread.
 */
public final class NodeAgent {
  private static final Logger log = LoggerFactory.getLogger(NodeAgent.class);

  /** The Node event's reason for a critical XID. */
  public static final String XID_EVENT_REASON = "GpuXidError";

  private final InventorySource discovery;
  private final DevicePluginManager plugins;
  private final NodeInventoryPublisher publisher;
  private final OverGrantWatch overGrant;
  private final NodeEvents nodeEvents;
  private final Optional<MpsWatch> mps;
  private final Clock clock;
  private final XidMarks xidMarks = new XidMarks();
  private GpuInventory lastDiscovered;
  // read by GetNode without the lock, which a slow publish may hold
  private volatile Instant discoveredAt;

  public NodeAgent(
      InventorySource discovery,
      DevicePluginManager plugins,
      NodeInventoryPublisher publisher,
      OverGrantWatch overGrant,
      NodeEvents nodeEvents,
      Optional<MpsWatch> mps,
      Clock clock) {
    this.discovery = requireNonNull(discovery, "discovery is null");
    this.plugins = requireNonNull(plugins, "plugins is null");
    this.publisher = requireNonNull(publisher, "publisher is null");
    this.overGrant = requireNonNull(overGrant, "overGrant is null");
    this.nodeEvents = requireNonNull(nodeEvents, "nodeEvents is null");
    this.mps = requireNonNull(mps, "mps is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * Discovers, updates the device plugins, publishes, checks shared GPUs' memory grants and keeps
   * the MPS daemons in line with the MPS pods.
   *
   * @return the inventory taken, or empty when discovery failed
   */
  public Optional<GpuInventory> runOnce() {
    GpuInventory inventory;
    try {
      inventory = discovery.discover();
    } catch (DiscoveryException e) {
      log.error("GPU discovery failed, every GPU is unhealthy until it works: {}", e.getMessage());
      plugins.discoveryFailed(e.getMessage());
      return Optional.empty();
    }
    apply(inventory);
    try {
      overGrant.runOnce();
    } catch (NvidiaSmiException | ApiException e) {
      log.warn("the GPU usage watch failed, retried next round: {}", e.getMessage());
    }
    if (mps.isPresent()) {
      try {
        mps.get().runOnce();
      } catch (ApiException e) {
        log.warn("MPS upkeep failed (HTTP {}), retried next round", e.getCode());
      }
    }
    return Optional.of(inventory);
  }

  /**
   * Marks the GPU of a critical XID unhealthy: the device lists are sent again, the inventory
   * republished, and a Warning event {@value #XID_EVENT_REASON} recorded on the Node.
   */
  public synchronized void xidError(XidError error) {
    if (!xidMarks.mark(error)) {
      return;
    }
    log.warn(
        "GPU {} (index {}) is unhealthy: {}", error.gpuUuid(), error.gpuIndex(), error.reason());
    if (lastDiscovered != null) {
      report(lastDiscovered);
    }
    try {
      nodeEvents.warn(
          XID_EVENT_REASON,
          "GPU "
              + error.gpuUuid()
              + " (index "
              + error.gpuIndex()
              + ") reported critical XID "
              + error.xid()
              + "; it is unhealthy until the device agent restarts");
    } catch (ApiException e) {
      log.warn("recording the XID event failed (HTTP {}): {}", e.getCode(), e.getMessage());
    }
  }

  /**
   * Hands {@code discovered}, a discovery just taken, (with GPUs a critical XID marked unhealthy)
   * to the device plugins and publishes it on the Node object.
   */
  public synchronized void apply(GpuInventory discovered) {
    lastDiscovered = discovered;
    discoveredAt = clock.instant();
    report(discovered);
  }

  /**
   * The latest discovery with the health the device plugins report (every GPU unhealthy while
   * discovery fails) and when it was taken; empty before the first {@link #apply}.
   */
  public Optional<InventorySnapshot> snapshot() {
    return plugins
        .reportedInventory()
        .map(inventory -> new InventorySnapshot(inventory, discoveredAt));
  }

  private void report(GpuInventory discovered) {
    GpuInventory inventory = xidMarks.overlay(discovered);
    plugins.update(inventory);
    try {
      publisher.publish(inventory);
    } catch (ApiException e) {
      log.warn(
          "publishing the inventory failed (HTTP {}), retried next round: {}",
          e.getCode(),
          e.getResponseBody() == null ? e.getMessage() : e.getResponseBody());
    }
  }
}
