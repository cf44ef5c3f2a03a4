package io.gantry.scheduler.plugins.dynamicresources;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.ResourceSlice;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The devices of a snapshot's ResourceSlices by pool (protocols.md §4.5 items 1–2): only the slices
 * of a pool's highest generation count, a pool with fewer slices of that generation than its {@code
 * resourceSliceCount} is incomplete, and a node reaches a device by name, selector or {@code
 * allNodes} of its slice, or of the device itself under {@code perDeviceNodeSelection}. Devices
 * keep slice order, then device order. Each node's list is computed once.
 */
final class DevicePools {
  private record PoolKey(String driver, String pool) {}

  private final ImmutableList<ResourceSlice> current;
  private final Map<PoolKey, Boolean> complete;
  // looked up by node name, never iterated
  private final Map<String, ImmutableList<CandidateDevice>> byNode = new HashMap<>();

  DevicePools(List<ResourceSlice> slices) {
    Map<PoolKey, Long> newest = new LinkedHashMap<>();
    for (ResourceSlice s : slices) {
      newest.merge(key(s), s.pool().generation(), Math::max);
    }
    Map<PoolKey, Long> seen = new LinkedHashMap<>();
    ImmutableList.Builder<ResourceSlice> kept = ImmutableList.builder();
    for (ResourceSlice s : slices) {
      if (s.pool().generation() == newest.get(key(s))) {
        kept.add(s);
        seen.merge(key(s), 1L, Long::sum);
      }
    }
    this.current = kept.build();
    this.complete = new HashMap<>();
    for (ResourceSlice s : current) {
      complete.put(key(s), seen.get(key(s)) >= s.pool().resourceSliceCount());
    }
  }

  /** The slices of each pool's newest generation, in snapshot order. */
  ImmutableList<ResourceSlice> current() {
    return current;
  }

  /** The devices a pod on this node can be given, whether allocated or not. */
  ImmutableList<CandidateDevice> reachableFrom(NodeInfo node) {
    return byNode.computeIfAbsent(node.name(), n -> collect(node));
  }

  private ImmutableList<CandidateDevice> collect(NodeInfo node) {
    ImmutableList.Builder<CandidateDevice> out = ImmutableList.builder();
    for (ResourceSlice s : current) {
      boolean poolComplete = complete.get(key(s));
      for (DraDevice d : s.devices()) {
        DeviceNodes nodes = s.nodesOf(d);
        if (nodes.reaches(node.name(), node.labels())) {
          out.add(
              new CandidateDevice(
                  s.driver(),
                  s.pool().name(),
                  d,
                  nodes,
                  poolComplete,
                  CounterBudget.uses(s.driver(), s.pool().name(), d)));
        }
      }
    }
    return out.build();
  }

  private static PoolKey key(ResourceSlice s) {
    return new PoolKey(s.driver(), s.pool().name());
  }
}
