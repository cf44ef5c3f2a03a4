package io.gantry.deviceagent.deviceplugin;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.HealthStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns the scheduler's allocation (whole devices by count, or shared GPU groups) into physical
 * GPUs of this node. The scheduler chooses groups, not GPUs: a group that a live pod on this node
 * already resolved keeps that pod's GPU, so every pod of a group shares one device; a new group
 * takes the healthy GPU with the lowest index that no live pod's resolved allocation holds.
 */
final class AllocationResolver {
  private AllocationResolver() {}

  /** The GPUs with {@code uuids}, in that order, as the kubelet chose them for whole devices. */
  static ImmutableList<AssignedGpu> byUuid(GpuInventory inventory, List<String> uuids)
      throws AllocationException {
    ImmutableList.Builder<AssignedGpu> gpus = ImmutableList.builder();
    for (String uuid : uuids) {
      GpuDevice d =
          inventory.devices().stream()
              .filter(g -> g.uuid().equals(uuid))
              .findFirst()
              .orElseThrow(
                  () ->
                      new AllocationException(
                          "unknown device " + uuid + ": this node has no such GPU"));
      gpus.add(assigned(d));
    }
    return gpus.build();
  }

  /**
   * The GPUs of a shared allocation's groups, in group order.
   *
   * @param resolved the resolved allocations of the other live pods on this node
   */
  static ImmutableList<AssignedGpu> forGroups(
      GpuAllocation pending, List<GpuAllocation> resolved, GpuInventory inventory)
      throws AllocationException {
    Set<String> held = new HashSet<>();
    resolved.forEach(a -> a.devices().forEach(d -> held.add(d.uuid())));
    List<AssignedGpu> chosen = new ArrayList<>();
    for (String group : pending.gpuGroups()) {
      Optional<AssignedGpu> existing = deviceOf(group, resolved);
      if (existing.isPresent()) {
        chosen.add(existing.get());
        continue;
      }
      GpuDevice free =
          inventory.devices().stream()
              .filter(d -> d.health().status() == HealthStatus.HEALTHY)
              .filter(d -> !held.contains(d.uuid()))
              .filter(d -> chosen.stream().noneMatch(c -> c.uuid().equals(d.uuid())))
              .findFirst()
              .orElseThrow(
                  () ->
                      new AllocationException(
                          "no free GPU on node "
                              + pending.node()
                              + " for GPU group "
                              + group
                              + ": every healthy GPU is held by a running pod"));
      chosen.add(assigned(free));
    }
    return ImmutableList.copyOf(chosen);
  }

  private static Optional<AssignedGpu> deviceOf(String group, List<GpuAllocation> resolved) {
    for (GpuAllocation a : resolved) {
      int at = a.gpuGroups().indexOf(group);
      if (at >= 0) {
        return Optional.of(a.devices().get(at));
      }
    }
    return Optional.empty();
  }

  private static AssignedGpu assigned(GpuDevice d) {
    return new AssignedGpu(d.index(), d.uuid(), d.memoryMib());
  }
}
