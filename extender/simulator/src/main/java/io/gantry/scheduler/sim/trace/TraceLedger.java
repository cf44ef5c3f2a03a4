package io.gantry.scheduler.sim.trace;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.BindDecision;
import java.util.List;
import java.util.TreeMap;

/**
 * What the engine's placements leave on each node, in the trace's own units (thousandths of a GPU
 * per device, CPU millicores, memory MiB), so metrics count exactly what the trace asked for. It
 * only accounts for the engine's decisions; it decides nothing.
 */
public final class TraceLedger {
  /** Where the engine put a task: its node, and for a shared task its GPU group and portion. */
  public record Placed(String node, ImmutableList<String> gpuGroups, GpuAmount gpuPortion) {
    public Placed {
      requireNonNull(node, "node is null");
      requireNonNull(gpuGroups, "gpuGroups is null");
      requireNonNull(gpuPortion, "gpuPortion is null");
    }

    public static Placed of(BindDecision bind) {
      return new Placed(bind.nodeName(), bind.gpuGroups(), bind.gpuPortion());
    }
  }

  /** One node's use. */
  static final class NodeUse {
    final TraceNode node;
    long cpuMillis;
    long memoryMib;
    int wholeDevices;
    final TreeMap<String, Integer> sharedMilli = new TreeMap<>();

    NodeUse(TraceNode node) {
      this.node = node;
    }

    /** Free thousandths of each device that has any. */
    int[] freeMilli() {
      int idle = node.gpus() - wholeDevices - sharedMilli.size();
      int[] out = new int[idle + sharedMilli.size()];
      int n = 0;
      for (int i = 0; i < idle; i++) {
        out[n++] = 1000;
      }
      for (int used : sharedMilli.values()) {
        if (used < 1000) {
          out[n++] = 1000 - used;
        }
      }
      return java.util.Arrays.copyOf(out, n);
    }

    long freeCpuMillis() {
      return node.cpuMillis() - cpuMillis;
    }

    long freeMemoryMib() {
      return node.memoryMib() - memoryMib;
    }
  }

  private final TreeMap<String, NodeUse> nodes = new TreeMap<>();
  private final long capacityMilli;
  private long allocatedMilli;

  public TraceLedger(List<TraceNode> nodes) {
    long capacity = 0;
    for (TraceNode n : nodes) {
      this.nodes.put(n.name(), new NodeUse(n));
      capacity += n.gpuMilli();
    }
    this.capacityMilli = capacity;
  }

  public long capacityMilli() {
    return capacityMilli;
  }

  public long allocatedMilli() {
    return allocatedMilli;
  }

  Iterable<NodeUse> nodes() {
    return nodes.values();
  }

  /**
   * Takes the task's resources on its node; fails when the node lacks them, so a replay can never
   * report a placement the cluster could not hold.
   */
  public void place(TraceTask task, Placed placed) {
    NodeUse n = use(placed);
    check(
        task.gpus() == 0 || task.gpuModels().isEmpty() || task.gpuModels().contains(n.node.model()),
        task,
        placed,
        "GPUs of the models it accepts");
    n.cpuMillis += task.cpuMillis();
    n.memoryMib += task.memoryMib();
    if (task.shared()) {
      String group = placed.gpuGroups().get(0);
      int used = n.sharedMilli.getOrDefault(group, 0) + task.gpuMilli();
      n.sharedMilli.put(group, used);
      check(used <= 1000, task, placed, "its shared GPU");
    } else if (task.gpus() > 0) {
      n.wholeDevices += task.gpus();
    }
    check(n.freeCpuMillis() >= 0, task, placed, "CPU");
    check(n.freeMemoryMib() >= 0, task, placed, "memory");
    check(n.wholeDevices + n.sharedMilli.size() <= n.node.gpus(), task, placed, "GPUs");
    allocatedMilli += task.gpuDemandMilli();
  }

  /** Gives the task's resources back. */
  public void remove(TraceTask task, Placed placed) {
    NodeUse n = use(placed);
    n.cpuMillis -= task.cpuMillis();
    n.memoryMib -= task.memoryMib();
    if (task.shared()) {
      String group = placed.gpuGroups().get(0);
      int used = n.sharedMilli.get(group) - task.gpuMilli();
      if (used == 0) {
        n.sharedMilli.remove(group);
      } else {
        n.sharedMilli.put(group, used);
      }
    } else if (task.gpus() > 0) {
      n.wholeDevices -= task.gpus();
    }
    allocatedMilli -= task.gpuDemandMilli();
  }

  private NodeUse use(Placed placed) {
    NodeUse n = nodes.get(placed.node());
    if (n == null) {
      throw new IllegalStateException("placed on unknown node " + placed.node());
    }
    return n;
  }

  private static void check(boolean ok, TraceTask task, Placed placed, String what) {
    if (!ok) {
      throw new IllegalStateException(
          "task " + task.name() + " placed on " + placed.node() + " without enough " + what);
    }
  }
}
