package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.api.dra.DraGpuClaims;
import io.gantry.scheduler.model.dra.DynamicResources;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How many placed tasks hold each DRA GPU claim, per queue and node (kai-reference §8: a physical
 * DRA GPU shared by several pods on a node is counted once per node). The first task to hold a
 * claim's GPUs adds them to its queue, the last to let go removes them. Keyed by claim rather than
 * by device: a device belongs to one claim's allocation at a time (the allocator never hands out a
 * held device), and a claim's count is known before its devices are chosen, which is when capacity
 * checks ask. Holders of a preemptible and a non-preemptible job count apart, as their queue
 * amounts do. Maps are looked up, never iterated.
 */
final class SharedGpuClaims {
  /** A queue's use of one GPU claim, by jobs of one preemptibility. */
  record Use(String queue, boolean nonPreemptible, String claim) {
    Use {
      requireNonNull(queue, "queue is null");
      requireNonNull(claim, "claim is null");
    }
  }

  /** A use of a claim on one node; a task not placed uses the node {@code ""}. */
  record OnNode(Use use, String node) {}

  /** One GPU claim a task uses and the GPU devices it counts for. */
  record ClaimGpus(Use use, long devices) {
    ClaimGpus {
      requireNonNull(use, "use is null");
    }
  }

  private final DynamicResources resources;

  /** Per use, the number of holders per node; a use with no holder left is removed. */
  private final Map<Use, Map<String, Integer>> holders = new HashMap<>();

  private final IdentityHashMap<TaskState, ImmutableList<ClaimGpus>> claimsByTask =
      new IdentityHashMap<>();

  SharedGpuClaims(DynamicResources resources) {
    this.resources = resources;
  }

  /** The task's GPU claims; none for a task without claims. */
  ImmutableList<ClaimGpus> claims(TaskState task) {
    if (task.info().resourceClaims().isEmpty()) {
      return ImmutableList.of();
    }
    return claimsByTask.computeIfAbsent(task, this::resolve);
  }

  private ImmutableList<ClaimGpus> resolve(TaskState task) {
    String queue = task.job().info().queue();
    boolean nonPreemptible = !task.job().info().preemptible();
    ImmutableList.Builder<ClaimGpus> out = ImmutableList.builder();
    DraGpuClaims.gpuClaims(task.info(), resources)
        .forEach(
            (claim, devices) ->
                out.add(new ClaimGpus(new Use(queue, nonPreemptible, claim), devices)));
    return out.build();
  }

  /** The task now holds its claims on {@code node}; returns the GPU devices it is first to hold. */
  long hold(TaskState task, String node) {
    long added = 0;
    for (ClaimGpus c : claims(task)) {
      Integer before =
          holders.computeIfAbsent(c.use(), u -> new HashMap<>()).merge(node, 1, Integer::sum) - 1;
      if (before == 0) {
        added += c.devices();
      }
    }
    return added;
  }

  /**
   * The task lets go of its claims on {@code node}; returns the GPU devices it was last to hold.
   */
  long release(TaskState task, String node) {
    long freed = 0;
    for (ClaimGpus c : claims(task)) {
      Map<String, Integer> byNode = holders.get(c.use());
      Integer count = byNode == null ? null : byNode.get(node);
      if (count == null) {
        throw new IllegalStateException(
            "task " + task.id() + " releases claim " + c.use().claim() + " it does not hold");
      }
      if (count > 1) {
        byNode.put(node, count - 1);
        continue;
      }
      byNode.remove(node);
      if (byNode.isEmpty()) {
        holders.remove(c.use());
      }
      freed += c.devices();
    }
    return freed;
  }

  /** How many tasks hold the use on the node. */
  int holders(Use use, String node) {
    Map<String, Integer> byNode = holders.get(use);
    return byNode == null ? 0 : byNode.getOrDefault(node, 0);
  }

  /** Whether any task holds the use, on any node. */
  boolean held(Use use) {
    return holders.containsKey(use);
  }

  /** The node a task holds its claims on: where it is placed while it counts as allocated. */
  static Optional<String> holdingNode(TaskState task) {
    return TaskMoves.countsAsAllocated(task.status()) ? task.nodeName() : Optional.empty();
  }

  /** Every use's holders per node, for comparing with a recount. */
  ImmutableMap<Use, ImmutableMap<String, Integer>> holdersView() {
    ImmutableMap.Builder<Use, ImmutableMap<String, Integer>> copy = ImmutableMap.builder();
    holders.forEach((use, byNode) -> copy.put(use, ImmutableMap.copyOf(byNode)));
    return copy.buildOrThrow();
  }
}
