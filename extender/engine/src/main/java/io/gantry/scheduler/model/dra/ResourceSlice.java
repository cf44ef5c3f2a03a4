package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * A ResourceSlice: some devices of one driver's pool, and the nodes that reach them: {@code nodes}
 * for the whole slice, or empty under {@code perDeviceNodeSelection}, where each device says; and
 * the {@code sharedCounters} its pool's devices consume.
 */
public record ResourceSlice(
    String name,
    String driver,
    ResourcePool pool,
    Optional<DeviceNodes> nodes,
    ImmutableList<DraDevice> devices,
    ImmutableList<CounterSet> sharedCounters) {

  public ResourceSlice {
    requireNonNull(name, "name is null");
    requireNonNull(driver, "driver is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(devices, "devices is null");
    requireNonNull(sharedCounters, "sharedCounters is null");
    for (DraDevice d : devices) {
      if (d.nodes().isPresent() == nodes.isPresent()) {
        throw new IllegalArgumentException(
            "ResourceSlice "
                + name
                + ", device "
                + d.name()
                + (nodes.isPresent()
                    ? ": nodeName, nodeSelector and allNodes of a device need"
                        + " perDeviceNodeSelection"
                    : ": under perDeviceNodeSelection each device needs one of nodeName,"
                        + " nodeSelector and allNodes"));
      }
    }
  }

  /** A slice of devices local to one node. */
  public static ResourceSlice onNode(
      String name,
      String driver,
      ResourcePool pool,
      String node,
      ImmutableList<DraDevice> devices) {
    return new ResourceSlice(
        name, driver, pool, Optional.of(DeviceNodes.node(node)), devices, ImmutableList.of());
  }

  /** The nodes that reach one of the slice's devices: the slice's, or the device's own. */
  public DeviceNodes nodesOf(DraDevice device) {
    return nodes.or(device::nodes).orElseThrow();
  }
}
