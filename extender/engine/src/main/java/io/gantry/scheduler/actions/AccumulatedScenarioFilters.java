package io.gantry.scheduler.actions;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.framework.AccumulatedScenario;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.QuotaGpuTally;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.VictimBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Prunes accumulated victim sets that cannot help before any is simulated (kai-reference §4.11):
 * node-affinity feasibility — every pending task has a node, among those it may use without
 * evictions and those of the victims, that its node affinity, taints and the node's state allow;
 * and idle GPUs — the GPUs free in the cluster plus those the victims hold cover the pending
 * demand, and some node could hold the largest pending task. Both are necessary conditions, so a
 * scenario that could succeed is never pruned. (Topology-aware capacity needs topology, which this
 * build does not schedule.) One instance serves one probe; victims only accumulate.
 */
final class AccumulatedScenarioFilters {
  private final Session session;
  private final List<TaskState> unplaceable = new ArrayList<>();
  private final Set<String> nodesSeen = new HashSet<>();
  private final Map<String, GpuAmount> victimGpusByNode = new HashMap<>();
  private final GpuAmount clusterFree;
  private final GpuAmount pendingDemand;
  private final GpuAmount largestPendingTask;
  private GpuAmount victimGpus = GpuAmount.ZERO;
  private GpuAmount largestNodeCapacity = GpuAmount.ZERO;

  private final Set<TaskState> counted = new HashSet<>();

  /** What the victims free: a DRA GPU claim they share counts once all its holders are in. */
  private final QuotaGpuTally freed;

  AccumulatedScenarioFilters(Session session, List<TaskState> pendingTasks) {
    this.session = session;
    this.unplaceable.addAll(pendingTasks);
    GpuAmount free = GpuAmount.ZERO;
    for (NodeState n : session.nodes()) {
      if (n.info().ready()) {
        free = free.plus(freeGpus(n));
        largestNodeCapacity = largestNodeCapacity.max(freeGpus(n));
      }
    }
    this.clusterFree = free;
    GpuAmount largest = GpuAmount.ZERO;
    for (TaskState t : pendingTasks) {
      largest = largest.max(session.quotaGpus(t));
    }
    this.pendingDemand = session.quotaGpus(pendingTasks);
    this.largestPendingTask = largest;
    this.freed = session.quotaGpuTally();
  }

  /** Whether the accumulated scenario may be worth simulating. */
  boolean pass(AccumulatedScenario base) {
    for (TaskState t : base.recorded()) {
      addVictim(t);
    }
    for (VictimBatch b : base.potential()) {
      for (TaskState t : b.tasks()) {
        addVictim(t);
      }
    }
    for (String node : base.feasibleNodes()) {
      seeNode(node);
    }
    return unplaceable.isEmpty() && enoughGpus();
  }

  private void addVictim(TaskState t) {
    if (!counted.add(t)) {
      return;
    }
    GpuAmount g = freed.add(t);
    victimGpus = victimGpus.plus(g);
    String node = t.nodeName().orElseThrow();
    GpuAmount onNode = victimGpusByNode.merge(node, g, GpuAmount::plus);
    largestNodeCapacity = largestNodeCapacity.max(freeGpus(session.node(node)).plus(onNode));
    seeNode(node);
  }

  private void seeNode(String name) {
    if (!nodesSeen.add(name) || unplaceable.isEmpty()) {
      return;
    }
    NodeState node = session.node(name);
    unplaceable.removeIf(t -> session.hooks().filterVictimInvariant(t, node).isSuccess());
  }

  private boolean enoughGpus() {
    if (!pendingDemand.isPositive()) {
      return true;
    }
    return clusterFree.plus(victimGpus).compareTo(pendingDemand) >= 0
        && largestNodeCapacity.compareTo(largestPendingTask) >= 0;
  }

  /**
   * Whole idle or releasing GPUs, idle or releasing MIG instances as the GPU slices of their
   * profiles (KAI's GetSumOfIdleGPUs and GetSumOfReleasingGPUs), plus the free portions of the
   * node's shared GPUs: a fractional victim frees its portion of a shared GPU, which becomes whole
   * once the rest of it is free too, so the bound counts both (without the free portions two
   * half-used GPUs whose halves could be moved together would never look able to hold a whole GPU).
   */
  static GpuAmount freeGpus(NodeState n) {
    GpuAmount free = n.idleOrReleasing().quotaGpus().max(GpuAmount.ZERO);
    for (var g : n.gpuGroups()) {
      free = free.plus(g.idleOrReleasingPortion());
    }
    return free;
  }
}
