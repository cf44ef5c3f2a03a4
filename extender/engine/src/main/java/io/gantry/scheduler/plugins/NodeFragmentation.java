package io.gantry.scheduler.plugins;

import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.plugins.predicates.NodeAffinityRule;
import java.util.Arrays;
import java.util.List;

/**
 * How much of one node's free GPU the learned mix of task shapes could not use (the measure of
 * "Beware of Fragmentation", Weng et al., ATC 2023, extended): for each shape, the free GPU of the
 * devices that cannot hold its portion, or all of the node's free GPU when the shape cannot land
 * there at all (too few usable devices, too little CPU or memory, or a node label it requires is
 * missing); summed over shapes by weight. In hundredths of a device.
 *
 * <p>A value holds one node's state as read, and places tasks on copies of it.
 */
final class NodeFragmentation {
  /** Free hundredths of each device that has any, unordered. */
  private final int[] free;

  private final int devices;
  private final long cpuMillis;
  private final long memoryBytes;

  private NodeFragmentation(int[] free, int devices, long cpuMillis, long memoryBytes) {
    this.free = free;
    this.devices = devices;
    this.cpuMillis = cpuMillis;
    this.memoryBytes = memoryBytes;
  }

  /** The node's idle state: whole free devices, the room of its shared devices, CPU, memory. */
  static NodeFragmentation of(NodeState node) {
    int[] free = new int[node.idleWholeGpus() + node.gpuGroups().size()];
    int n = 0;
    for (int i = 0; i < node.idleWholeGpus(); i++) {
      free[n++] = NodeIdleRoom.DEVICE;
    }
    for (GpuGroupView g : node.gpuGroups()) {
      int room = Math.toIntExact(g.idlePortion().hundredths());
      if (room > 0) {
        free[n++] = room;
      }
    }
    return new NodeFragmentation(free, n, node.idle().cpuMillis(), node.idle().memoryBytes());
  }

  /** What a mix sees of one node: each shape's portion there and whether its labels allow it. */
  static final class Fit {
    private final int[] portions;
    private final boolean[] allowed;

    private Fit(int[] portions, boolean[] allowed) {
      this.portions = portions;
      this.allowed = allowed;
    }
  }

  /**
   * Each shape's portion on the node's devices, and whether the node's labels admit it: for the
   * shapes of a mix in their order ({@link ShapeMix#shapes()}), so it serves the weights at every
   * moment, which hold a first part of them.
   */
  static Fit fit(List<DemandShape> shapes, NodeState node) {
    int size = shapes.size();
    int[] portions = new int[size];
    boolean[] allowed = new boolean[size];
    for (int i = 0; i < size; i++) {
      DemandShape s = shapes.get(i);
      portions[i] = s.portionOn(node.info().gpuMemoryMib());
      allowed[i] =
          s.placement().equals(PodPlacementRequirements.none())
              || NodeAffinityRule.mismatch(s.placement(), node.info().labels(), node.name())
                  .isEmpty();
    }
    return new Fit(portions, allowed);
  }

  /**
   * The weighted free GPU the mix cannot use here. Shapes that ask the same portion of the same
   * number of devices share one pass over the devices; each then only compares CPU and memory.
   */
  double fragmentation(ShapeMix.Weights mix, Fit fit) {
    long total = 0;
    for (int d = 0; d < devices; d++) {
      total += free[d];
    }
    if (total == 0) {
      return 0;
    }
    double sum = 0;
    int lastPortion = -1;
    int lastDevices = -1;
    boolean devicesFit = false;
    long unusable = 0;
    for (int i : mix.byGpuAsk()) {
      DemandShape s = mix.shapes().get(i);
      double w = mix.weight(i);
      if (!admits(s, i, fit)) {
        sum += w * total;
        continue;
      }
      int portion = fit.portions[i];
      if (portion != lastPortion || s.devices() != lastDevices) {
        lastPortion = portion;
        lastDevices = s.devices();
        int usable = 0;
        unusable = 0;
        for (int d = 0; d < devices; d++) {
          if (free[d] >= portion) {
            usable++;
          } else {
            unusable += free[d];
          }
        }
        devicesFit = usable >= s.devices();
      }
      sum += w * (devicesFit ? unusable : total);
    }
    return sum;
  }

  /**
   * Whether the node's labels, CPU and memory admit one task of the shape, {@code index} in the
   * fit.
   */
  private boolean admits(DemandShape shape, int index, Fit fit) {
    return fit.allowed[index]
        && cpuMillis >= shape.cpuMillis()
        && memoryBytes >= shape.memoryBytes();
  }

  /** Whether one task of the shape, {@code index} in the fit, could land here. */
  boolean hosts(DemandShape shape, int index, Fit fit) {
    if (!admits(shape, index, fit)) {
      return false;
    }
    int portion = fit.portions[index];
    int usable = 0;
    for (int d = 0; d < devices; d++) {
      if (free[d] >= portion) {
        usable++;
      }
    }
    return usable >= shape.devices();
  }

  /**
   * This state with {@code count} whole devices, CPU and memory taken; null if they are not free.
   */
  NodeFragmentation takeWhole(int count, long cpu, long memory) {
    int[] next = Arrays.copyOf(free, devices);
    int n = devices;
    int left = count;
    for (int d = n - 1; d >= 0 && left > 0; d--) {
      if (next[d] == NodeIdleRoom.DEVICE) {
        next[d] = next[--n];
        left--;
      }
    }
    return left > 0 ? null : new NodeFragmentation(next, n, cpuMillis - cpu, memoryBytes - memory);
  }

  /**
   * This state with {@code portion} taken from a device that has {@code room} free, and CPU and
   * memory taken; null if no device has exactly that room.
   */
  NodeFragmentation takeShared(int room, int portion, long cpu, long memory) {
    for (int d = 0; d < devices; d++) {
      if (free[d] == room && room >= portion) {
        int[] next = Arrays.copyOf(free, devices);
        next[d] -= portion;
        return new NodeFragmentation(next, devices, cpuMillis - cpu, memoryBytes - memory);
      }
    }
    return null;
  }

  /** The distinct rooms of devices that can take {@code portion}, ascending. */
  int[] roomsFor(int portion) {
    // a loop, not a stream: this runs for every group the search costs, per shared task
    int[] rooms = new int[devices];
    int n = 0;
    for (int d = 0; d < devices; d++) {
      if (free[d] >= portion) {
        rooms[n++] = free[d];
      }
    }
    Arrays.sort(rooms, 0, n);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
      if (distinct == 0 || rooms[distinct - 1] != rooms[i]) {
        rooms[distinct++] = rooms[i];
      }
    }
    return Arrays.copyOf(rooms, distinct);
  }
}
