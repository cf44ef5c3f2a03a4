package io.gantry.scheduler.sim;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskInfo;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the tasks a scenario places on its nodes already hold, so that an impossible starting state
 * (more running pods, CPU, memory or GPUs on a node than it has) is an input error naming the node
 * and the task that overflows it, instead of a node with negative idle capacity.
 */
final class NodeCommitments {
  /** The name of a shared GPU group the loader opens for fractions that name none. */
  static final String SHARED_GROUP_PREFIX = "shared-";

  private final Map<String, NodeInfo> nodes;
  private final Map<String, Held> held = new HashMap<>();

  NodeCommitments(Map<String, NodeInfo> nodes) {
    this.nodes = nodes;
  }

  /** Adds a task that holds resources on its node; the problem if the node cannot hold it. */
  Optional<String> take(TaskInfo task) {
    if (!task.status().holdsNodeResources() || task.nodeName().isEmpty()) {
      return Optional.empty();
    }
    NodeInfo node = nodes.get(task.nodeName().get());
    Held h = held.computeIfAbsent(node.name(), k -> new Held());
    Resources request = task.request();
    h.pods++;
    h.cpuMillis += request.cpuMillis();
    h.memoryBytes += request.memoryBytes();
    h.wholeGpus = h.wholeGpus.plus(request.gpus());
    for (String group : task.gpuGroups()) {
      h.sharedPortions.merge(group, task.gpuPortion(), GpuAmount::plus);
    }
    request.extended().forEach((k, v) -> h.extended.merge(k, v, Long::sum));
    return h.overflow(node);
  }

  /**
   * The shared GPU group a placed one-device fraction that names none joins: the first group on the
   * node, by name, whose held portions leave room for it, else a new one. KAI's test tables place
   * such fractions without naming a device, and two halves on one node hold one GPU between them; a
   * device per task would over-commit starting states KAI schedules.
   */
  String sharedGroupFor(String nodeName, GpuAmount portion) {
    Held h = held.computeIfAbsent(nodeName, k -> new Held());
    for (var e : h.sharedPortions.entrySet()) {
      if (e.getValue().plus(portion).compareTo(GpuAmount.ofDevices(1)) <= 0) {
        return e.getKey();
      }
    }
    int n = 0;
    while (h.sharedPortions.containsKey(SHARED_GROUP_PREFIX + n)) {
      n++;
    }
    return SHARED_GROUP_PREFIX + n;
  }

  private static final class Held {
    private int pods;
    private long cpuMillis;
    private long memoryBytes;
    private GpuAmount wholeGpus = GpuAmount.ZERO;
    private final TreeMap<String, GpuAmount> sharedPortions = new TreeMap<>();
    private final TreeMap<String, Long> extended = new TreeMap<>();

    Optional<String> overflow(NodeInfo node) {
      Resources allocatable = node.allocatable();
      String prefix = "node " + node.name() + " is over-committed: its placed tasks hold ";
      if (pods > node.maxPods()) {
        return Optional.of(prefix + pods + " pods, it has room for " + node.maxPods());
      }
      if (cpuMillis > allocatable.cpuMillis()) {
        return Optional.of(prefix + cpuMillis + "m CPU, it has " + allocatable.cpuMillis() + "m");
      }
      if (memoryBytes > allocatable.memoryBytes()) {
        return Optional.of(
            prefix + memoryBytes + " bytes of memory, it has " + allocatable.memoryBytes());
      }
      GpuAmount devices = wholeGpus.plus(GpuAmount.ofDevices(sharedPortions.size()));
      if (devices.compareTo(allocatable.gpus()) > 0) {
        return Optional.of(
            prefix
                + gpus(devices)
                + " GPUs ("
                + gpus(wholeGpus)
                + " whole, "
                + sharedPortions.size()
                + " shared), it has "
                + node.gpuCount());
      }
      for (var e : sharedPortions.entrySet()) {
        if (e.getValue().compareTo(GpuAmount.ofDevices(1)) > 0) {
          return Optional.of(
              prefix
                  + gpus(e.getValue())
                  + " of shared GPU group "
                  + e.getKey()
                  + ", a device holds at most 1");
        }
      }
      for (var e : extended.entrySet()) {
        long have = allocatable.extended(e.getKey());
        if (e.getValue() > have) {
          return Optional.of(prefix + e.getValue() + " " + e.getKey() + ", it has " + have);
        }
      }
      return Optional.empty();
    }

    private static String gpus(GpuAmount devices) {
      return BigDecimal.valueOf(devices.hundredths(), 2)
          .setScale(2, RoundingMode.HALF_UP)
          .stripTrailingZeros()
          .toPlainString();
    }
  }
}
