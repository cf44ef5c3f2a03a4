package io.gantry.deviceagent.agent;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.deviceplugin.DevicePluginManager;
import io.gantry.deviceagent.discovery.GpuDiscovery;
import io.gantry.deviceagent.enforcement.OverGrantWatch;
import io.gantry.deviceagent.inventory.GpuInventory;
import io.gantry.deviceagent.kube.NodeInventoryPublisher;
import io.gantry.deviceagent.nvidiasmi.NvidiaSmiException;
import io.kubernetes.client.openapi.ApiException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One round of the DaemonSet's work, run every discovery interval by {@code serve}: take the
 * inventory, hand it to the device plugins (health changes reach the kubelet) and publish it on the
 * Node object. A failed discovery makes every GPU unhealthy for the kubelet and leaves the
 * published inventory as it was; a failed publish is retried in the next round.
 */
public final class NodeAgent {
  private static final Logger log = LoggerFactory.getLogger(NodeAgent.class);

  private final GpuDiscovery discovery;
  private final DevicePluginManager plugins;
  private final NodeInventoryPublisher publisher;
  private final OverGrantWatch overGrant;

  public NodeAgent(
      GpuDiscovery discovery,
      DevicePluginManager plugins,
      NodeInventoryPublisher publisher,
      OverGrantWatch overGrant) {
    this.discovery = requireNonNull(discovery, "discovery is null");
    this.plugins = requireNonNull(plugins, "plugins is null");
    this.publisher = requireNonNull(publisher, "publisher is null");
    this.overGrant = requireNonNull(overGrant, "overGrant is null");
  }

  /**
   * Discovers, updates the device plugins, publishes, and checks shared GPUs' memory grants.
   *
   * @return the inventory taken, or empty when discovery failed
   */
  public Optional<GpuInventory> runOnce() {
    GpuInventory inventory;
    try {
      inventory = discovery.discover();
    } catch (NvidiaSmiException e) {
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
    return Optional.of(inventory);
  }

  /** Hands {@code inventory} to the device plugins and publishes it on the Node object. */
  public void apply(GpuInventory inventory) {
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
