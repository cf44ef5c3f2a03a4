package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.gpusharing.inventory.json.InventoryFormatException;
import io.gantry.scheduler.kube.ops.SchedulerMetrics;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.ObjectRef;
import io.gantry.scheduler.model.GpuTopology;
import io.kubernetes.client.openapi.models.V1Node;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Node's GPU inventory annotation ({@value InventoryAnnotation#KEY}, written by the device agent)
 * as the engine's {@link GpuTopology}: each NVLink domain a group of device indices, and the
 * devices the agent reports unhealthy, which the device plugin withholds from the kubelet and so no
 * task may be given.
 *
 * <p>The domains are used only while the annotation agrees with the node's allocatable {@code
 * nvidia.com/gpu}: its healthy devices are exactly the allocatable count. The kubelet hears of a
 * health change from the device plugin and the annotation follows a little later; until both agree,
 * the node is scheduled by count alone, as a node without an inventory is.
 *
 * <p>An annotation this build cannot read (not JSON, another version, a wrong field) also leaves
 * the node without domains, still schedulable by count. It is reported once per annotation value,
 * not every cycle: a warning log and a Warning event {@value #REASON} on the Node, both naming the
 * node and the field, and the counter {@code gantry_gpu_inventory_unreadable_total}.
 */
public final class GpuInventoryReader {
  static final String REASON = "GpuInventoryUnreadable";
  static final String UNREADABLE_COUNTER = SchedulerMetrics.PREFIX + "gpu_inventory_unreadable";

  private static final Logger LOG = LoggerFactory.getLogger(GpuInventoryReader.class);

  private final EventRecorder events;
  private final Optional<Counter> unreadable;

  /** Node name → the unreadable annotation value last reported for it. */
  private final Map<String, String> reported = new ConcurrentHashMap<>();

  /**
   * @param registry where the unreadable-annotation counter goes; empty where the front door has no
   *     metrics registry of its own yet (the log and the event still report)
   */
  public GpuInventoryReader(EventRecorder events, Optional<MeterRegistry> registry) {
    this.events = requireNonNull(events, "events is null");
    this.unreadable =
        requireNonNull(registry, "registry is null")
            .map(
                r ->
                    Counter.builder(UNREADABLE_COUNTER)
                        .description(
                            "node GPU inventory annotation values that could not be read (the node"
                                + " is scheduled without NVLink domains)")
                        .register(r));
  }

  /**
   * The node's GPU topology.
   *
   * @param offeredGpus the node's allocatable whole GPUs
   */
  GpuTopology topology(V1Node node, int offeredGpus) {
    String name = node.getMetadata().getName();
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(InventoryAnnotation.KEY);
    if (value == null) {
      reported.remove(name);
      return GpuTopology.NONE;
    }
    GpuInventory inventory;
    try {
      inventory = InventoryAnnotation.parse(value).inventory();
      checkDomains(inventory);
    } catch (InventoryFormatException e) {
      report(node, value, e.getMessage());
      return GpuTopology.NONE;
    }
    reported.remove(name);
    List<Integer> unhealthy = new ArrayList<>();
    for (GpuDevice d : inventory.devices()) {
      if (d.health().status() == HealthStatus.UNHEALTHY) {
        unhealthy.add(d.index());
      }
    }
    int healthy = inventory.devices().size() - unhealthy.size();
    if (inventory.nvlinkDomains().isEmpty() || healthy != offeredGpus) {
      if (healthy != offeredGpus) {
        LOG.debug(
            "node {}: {} healthy GPUs in its inventory, {} allocatable; scheduled by count until"
                + " they agree",
            name,
            healthy,
            offeredGpus);
      }
      return GpuTopology.NONE;
    }
    return GpuTopology.of(
        inventory.nvlinkDomains().stream()
            .map(NvlinkDomain::gpuIndices)
            .collect(ImmutableList.toImmutableList()),
        unhealthy);
  }

  /** Every domain names devices of the inventory, each device in one domain at most. */
  private static void checkDomains(GpuInventory inventory) throws InventoryFormatException {
    boolean[] seen = new boolean[inventory.devices().size()];
    for (int d = 0; d < inventory.nvlinkDomains().size(); d++) {
      for (int index : inventory.nvlinkDomains().get(d).gpuIndices()) {
        String field = InventoryAnnotation.KEY + ": nvlinkDomains[" + d + "].gpuIndices: ";
        if (index < 0 || index >= seen.length) {
          throw new InventoryFormatException(
              field + "device " + index + " is not one of the " + seen.length + " devices");
        }
        if (seen[index]) {
          throw new InventoryFormatException(
              field + "device " + index + " is already in another domain");
        }
        seen[index] = true;
      }
    }
  }

  private void report(V1Node node, String value, String problem) {
    String name = node.getMetadata().getName();
    if (value.equals(reported.put(name, value))) {
      return;
    }
    String message = "node " + name + " is scheduled without NVLink domains: " + problem;
    LOG.warn(message);
    String uid = node.getMetadata().getUid();
    events.warning(new ObjectRef("v1", "Node", "", name, uid == null ? "" : uid), REASON, message);
    unreadable.ifPresent(Counter::increment);
  }
}
