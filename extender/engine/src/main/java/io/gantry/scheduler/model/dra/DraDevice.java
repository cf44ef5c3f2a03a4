package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.placement.Taint;
import java.util.Map;
import java.util.Optional;

/**
 * One device of a ResourceSlice. Attribute and capacity names are qualified names as written in the
 * manifest: a name without a domain belongs to the slice's driver. Capacity values are quantities
 * as written ({@code 80Gi}). {@code nodes} is the device's own node selection, present only in a
 * slice with {@code perDeviceNodeSelection}. {@code taints} (NoSchedule or NoExecute) keep the
 * device from requests that do not tolerate them. {@code consumesCounters} is what an allocation of
 * it takes from its pool's shared counters.
 */
public record DraDevice(
    String name,
    ImmutableSortedMap<String, DeviceAttribute> attributes,
    ImmutableSortedMap<String, String> capacity,
    Optional<DeviceNodes> nodes,
    ImmutableList<Taint> taints,
    ImmutableList<DeviceCounterConsumption> consumesCounters) {

  public DraDevice {
    requireNonNull(name, "name is null");
    requireNonNull(attributes, "attributes is null");
    requireNonNull(capacity, "capacity is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(taints, "taints is null");
    requireNonNull(consumesCounters, "consumesCounters is null");
  }

  public DraDevice(String name, Map<String, DeviceAttribute> attributes) {
    this(
        name,
        ImmutableSortedMap.copyOf(attributes),
        ImmutableSortedMap.of(),
        Optional.empty(),
        ImmutableList.of(),
        ImmutableList.of());
  }

  /**
   * The attribute by its fully qualified name ({@code gpu.gantry.io/nvlinkDomain}); a name of the
   * driver's own domain may also be written without the domain on the device.
   */
  public Optional<DeviceAttribute> attribute(String driver, String qualifiedName) {
    DeviceAttribute exact = attributes.get(qualifiedName);
    if (exact != null) {
      return Optional.of(exact);
    }
    String ownPrefix = driver + "/";
    if (qualifiedName.startsWith(ownPrefix)) {
      return Optional.ofNullable(attributes.get(qualifiedName.substring(ownPrefix.length())));
    }
    return Optional.empty();
  }
}
