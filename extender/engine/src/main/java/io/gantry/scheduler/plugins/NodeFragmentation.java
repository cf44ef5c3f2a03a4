package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableList;
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
 * <p>A value holds one node's state as read, with each shape's usable devices and the free GPU of
 * the others counted once: the fragmentation at any weights, and with a task placed on whole
 * devices or on one shared device, is then one pass over the shapes, which the search makes for
 * every group of nodes and every task while the state changes only when a task lands on the node.
 * The counts after a placement are those of the state taken away from, moved by the devices whose
 * room changes, so they are exactly the counts of the state the placement leaves.
 */
final class NodeFragmentation {
  /** The room of a device a task took whole: it leaves the free devices. */
  private static final int TAKEN = -1;

  /** Free hundredths of each device that has any, unordered; a shared placement may leave 0. */
  private final int[] free;

  private final int devices;
  private final long cpuMillis;
  private final long memoryBytes;
  private final Fit fit;

  /** The free GPU of all devices. */
  private final long total;

  /** The devices wholly free, which a whole-device task takes. */
  private final int wholeRooms;

  /** The distinct rooms of the devices, ascending, in the first {@link #roomCount} places. */
  private final int[] rooms;

  private final int roomCount;

  /** Per shape of the fit: devices that can hold its portion, and the free GPU of the others. */
  private final int[] usable;

  private final long[] unusable;

  private NodeFragmentation(int[] free, int devices, long cpuMillis, long memoryBytes, Fit fit) {
    this.free = free;
    this.devices = devices;
    this.cpuMillis = cpuMillis;
    this.memoryBytes = memoryBytes;
    this.fit = fit;
    long sum = 0;
    int whole = 0;
    for (int d = 0; d < devices; d++) {
      sum += free[d];
      whole += free[d] == NodeIdleRoom.DEVICE ? 1 : 0;
    }
    this.total = sum;
    this.wholeRooms = whole;
    this.rooms = Arrays.copyOf(free, devices);
    Arrays.sort(rooms);
    int distinct = 0;
    for (int room : rooms) {
      if (distinct == 0 || rooms[distinct - 1] != room) {
        rooms[distinct++] = room;
      }
    }
    this.roomCount = distinct;
    int shapes = fit.portions.length;
    this.usable = new int[shapes];
    this.unusable = new long[shapes];
    for (int i = 0; i < shapes; i++) {
      int portion = fit.portions[i];
      for (int d = 0; d < devices; d++) {
        if (free[d] >= portion) {
          usable[i]++;
        } else {
          unusable[i] += free[d];
        }
      }
    }
  }

  /**
   * The node's idle state as {@code fit} sees it: whole free devices, the room of its shared
   * devices, CPU, memory.
   */
  static NodeFragmentation of(NodeState node, Fit fit) {
    int[] free = new int[node.idleWholeGpus() + node.gpuGroups().size()];
    int n = 0;
    for (int i = 0; i < node.idleWholeGpus(); i++) {
      free[n++] = NodeIdleRoom.DEVICE;
    }
    List<GpuGroupView> groups = node.gpuGroups();
    // by index: no iterator for every node a placement changes
    for (int i = 0; i < groups.size(); i++) {
      int room = Math.toIntExact(groups.get(i).idlePortion().hundredths());
      if (room > 0) {
        free[n++] = room;
      }
    }
    return new NodeFragmentation(free, n, node.idle().cpuMillis(), node.idle().memoryBytes(), fit);
  }

  /**
   * The shapes of a mix in their order ({@link ShapeMix#shapes()}), with what every node reads of
   * them as arrays, so a pass over the shapes calls no accessor.
   */
  static final class Shapes {
    private final ImmutableList<DemandShape> list;
    private final int[] devices;
    private final long[] cpuMillis;
    private final long[] memoryBytes;

    Shapes(ImmutableList<DemandShape> list) {
      this.list = list;
      int size = list.size();
      this.devices = new int[size];
      this.cpuMillis = new long[size];
      this.memoryBytes = new long[size];
      for (int i = 0; i < size; i++) {
        devices[i] = list.get(i).devices();
        cpuMillis[i] = list.get(i).cpuMillis();
        memoryBytes[i] = list.get(i).memoryBytes();
      }
    }
  }

  /** What a mix sees of one node: each shape's portion there and whether its labels allow it. */
  static final class Fit {
    private final Shapes shapes;
    private final int[] portions;
    private final boolean[] allowed;

    private Fit(Shapes shapes, int[] portions, boolean[] allowed) {
      this.shapes = shapes;
      this.portions = portions;
      this.allowed = allowed;
    }
  }

  /**
   * Each shape's portion on the node's devices, and whether the node's labels admit it: for the
   * shapes of a mix in their order, so it serves the weights at every moment, which hold a first
   * part of them.
   */
  static Fit fit(Shapes shapes, NodeState node) {
    int size = shapes.list.size();
    int[] portions = new int[size];
    boolean[] allowed = new boolean[size];
    for (int i = 0; i < size; i++) {
      DemandShape s = shapes.list.get(i);
      portions[i] = s.portionOn(node.info().gpuMemoryMib());
      allowed[i] =
          s.placement().equals(PodPlacementRequirements.none())
              || NodeAffinityRule.mismatch(s.placement(), node.info().labels(), node.name())
                  .isEmpty();
    }
    return new Fit(shapes, portions, allowed);
  }

  /** The weighted free GPU the mix cannot use here. */
  double fragmentation(ShapeMix.Weights mix) {
    return fragmentationWith(mix, 0, 0, 0, 0, 0, 0);
  }

  /**
   * The fragmentation with {@code count} wholly free devices, CPU and memory taken; NaN if the
   * devices are not free.
   */
  double fragmentationWithWhole(int count, long cpu, long memory, ShapeMix.Weights mix) {
    if (count > wholeRooms) {
      return Double.NaN;
    }
    return fragmentationWith(
        mix, count, NodeIdleRoom.DEVICE, TAKEN, (long) count * NodeIdleRoom.DEVICE, cpu, memory);
  }

  /**
   * The fragmentation with {@code portion} taken from a device that has {@code room} free, and CPU
   * and memory taken; NaN if no device has exactly that room or it is less than the portion.
   */
  double fragmentationWithSharedOn(
      int room, int portion, long cpu, long memory, ShapeMix.Weights mix) {
    if (room < portion || Arrays.binarySearch(rooms, 0, roomCount, room) < 0) {
      return Double.NaN;
    }
    return fragmentationWith(mix, 1, room, room - portion, portion, cpu, memory);
  }

  /**
   * The least fragmentation with {@code portion} taken from each of {@code count} devices, CPU and
   * memory with the first: device by device, each on the room that leaves the least (the smallest
   * such room on a tie); NaN if the devices lack the room.
   */
  double fragmentationWithShared(
      int portion, int count, long cpu, long memory, ShapeMix.Weights mix) {
    if (count == 0) {
      return fragmentation(mix);
    }
    NodeFragmentation state = this;
    double value = Double.NaN;
    for (int d = 0; d < count; d++) {
      long cpuTaken = d == 0 ? cpu : 0;
      long memoryTaken = d == 0 ? memory : 0;
      int bestRoom = -1;
      double bestValue = Double.MAX_VALUE;
      for (int k = 0; k < state.roomCount; k++) {
        int room = state.rooms[k];
        if (room >= portion) {
          double next = state.fragmentationWithSharedOn(room, portion, cpuTaken, memoryTaken, mix);
          if (next < bestValue) {
            bestRoom = room;
            bestValue = next;
          }
        }
      }
      if (bestRoom < 0) {
        return Double.NaN;
      }
      value = bestValue;
      if (d + 1 < count) {
        state = state.takeShared(bestRoom, portion, cpuTaken, memoryTaken);
      }
    }
    return value;
  }

  /**
   * The sum over the shapes with {@code count} devices moved from room {@code from} to room {@code
   * to} ({@link #TAKEN}: gone), and {@code gpu} hundredths, {@code cpu} and {@code memory} taken.
   * Shapes are summed in their order by GPU ask, each weight times an exact count.
   */
  private double fragmentationWith(
      ShapeMix.Weights mix, int count, int from, int to, long gpu, long cpu, long memory) {
    long totalLeft = total - gpu;
    if (totalLeft == 0) {
      return 0;
    }
    long cpuLeft = cpuMillis - cpu;
    long memoryLeft = memoryBytes - memory;
    Shapes shapes = fit.shapes;
    double sum = 0;
    for (int i : mix.byGpuAsk()) {
      long lost = totalLeft;
      if (fit.allowed[i] && cpuLeft >= shapes.cpuMillis[i] && memoryLeft >= shapes.memoryBytes[i]) {
        int portion = fit.portions[i];
        int usableLeft = usable[i];
        long unusableLeft = unusable[i];
        if (from >= portion) {
          usableLeft -= count;
        } else {
          unusableLeft -= (long) count * from;
        }
        if (to >= portion) {
          usableLeft += count;
        } else if (to > 0) {
          unusableLeft += (long) count * to;
        }
        if (usableLeft >= shapes.devices[i]) {
          lost = unusableLeft;
        }
      }
      sum += mix.weight(i) * lost;
    }
    return sum;
  }

  /** Whether one task of shape {@code i} of the fit could land here. */
  boolean hosts(int i) {
    Shapes shapes = fit.shapes;
    return fit.allowed[i]
        && cpuMillis >= shapes.cpuMillis[i]
        && memoryBytes >= shapes.memoryBytes[i]
        && usable[i] >= shapes.devices[i];
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
        return new NodeFragmentation(next, devices, cpuMillis - cpu, memoryBytes - memory, fit);
      }
    }
    return null;
  }
}
