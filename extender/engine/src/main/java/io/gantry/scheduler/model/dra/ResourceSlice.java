package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import java.util.Optional;

/**
 * A ResourceSlice: some devices of one driver's pool, and the nodes that reach them (exactly one of
 * {@code nodeName}, {@code nodeSelector} and {@code allNodes}).
 */
public record ResourceSlice(
    String name,
    String driver,
    ResourcePool pool,
    Optional<String> nodeName,
    Optional<NodeSelectorTerm> nodeSelector,
    boolean allNodes,
    ImmutableList<DraDevice> devices) {

  public ResourceSlice {
    requireNonNull(name, "name is null");
    requireNonNull(driver, "driver is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(nodeSelector, "nodeSelector is null");
    requireNonNull(devices, "devices is null");
    int ways =
        (nodeName.isPresent() ? 1 : 0) + (nodeSelector.isPresent() ? 1 : 0) + (allNodes ? 1 : 0);
    if (ways != 1) {
      throw new IllegalArgumentException(
          "ResourceSlice "
              + name
              + ": exactly one of nodeName, nodeSelector and allNodes must be set, got "
              + ways);
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
        name, driver, pool, Optional.of(node), Optional.empty(), false, devices);
  }

  /** Whether a pod on this node reaches the slice's devices. */
  public boolean reaches(String node, ImmutableSortedMap<String, String> nodeLabels) {
    if (allNodes) {
      return true;
    }
    if (nodeName.isPresent()) {
      return nodeName.get().equals(node);
    }
    return nodeSelector.orElseThrow().matches(nodeLabels, node);
  }
}
