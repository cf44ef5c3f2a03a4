package io.gantry.scheduler.plugins;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.config.SearchBudgets;
import io.gantry.scheduler.framework.AccumulatedScenario;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.QuotaGpuTally;
import io.gantry.scheduler.framework.ScenarioGenerator;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.VictimBatch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * KAI's {@code sg-multinodegang} generator (kai-reference §4.11): for each accumulated victim set,
 * sub-scenarios that pick victim-bearing nodes by ascending capacity after eviction (free GPUs plus
 * those the recorded victims and the node's batches free; ties by when the node's first victim was
 * popped), starting with the smallest prefix that covers the pending GPU demand beyond what the
 * other feasible nodes offer, and doubling the prefix up to every candidate node. Picking a node
 * picks every batch with a task on it, whole, so gangs are evicted together.
 */
public final class MultiNodeGangPlugin implements ScenarioGenerator {
  public static final String NAME = "sg-multinodegang";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String generatorName() {
    return SearchBudgets.MULTI_NODE_GANG;
  }

  @Override
  public List<List<TaskState>> scenarios(AccumulatedScenario base, SessionView session) {
    long demand = session.quotaGpus(base.pendingTasks()).hundredths();
    long smallestTask = -1;
    for (TaskState t : base.pendingTasks()) {
      long g = session.quotaGpus(t).hundredths();
      smallestTask = smallestTask < 0 ? g : Math.min(smallestTask, g);
    }
    // one tally, recorded victims first: a DRA GPU claim the victims share counts on its node once
    // its last holder is in
    QuotaGpuTally freed = session.quotaGpuTally();
    Map<String, Long> recordedFreed = new TreeMap<>();
    for (TaskState t : base.recorded()) {
      recordedFreed.merge(t.nodeName().orElseThrow(), freed.add(t).hundredths(), Long::sum);
    }
    List<VictimBatch> batches = base.potential();
    Map<String, List<Integer>> nodeBatches = new LinkedHashMap<>();
    Map<String, Long> capacity = new TreeMap<>();
    for (int i = 0; i < batches.size(); i++) {
      for (TaskState t : batches.get(i).tasks()) {
        String node = t.nodeName().orElseThrow();
        List<Integer> onNode = nodeBatches.computeIfAbsent(node, n -> new ArrayList<>());
        if (!onNode.contains(i)) {
          onNode.add(i);
        }
        capacity.merge(node, freed.add(t).hundredths(), Long::sum);
      }
    }
    List<String> firstSeen = new ArrayList<>(nodeBatches.keySet());
    List<String> candidates = new ArrayList<>();
    for (String node : firstSeen) {
      long c = capacity.get(node) + free(session, node) + recordedFreed.getOrDefault(node, 0L);
      capacity.put(node, c);
      if (smallestTask <= 0 || c >= smallestTask) {
        candidates.add(node);
      }
    }
    candidates.sort(
        Comparator.comparingLong((String n) -> capacity.get(n)).thenComparing(firstSeen::indexOf));
    long baseline = 0;
    for (String node : base.feasibleNodes()) {
      if (!nodeBatches.containsKey(node)) {
        baseline += free(session, node) + recordedFreed.getOrDefault(node, 0L);
      }
    }
    long needed = Math.max(0, demand - baseline);
    int k = smallestPrefixCovering(candidates, capacity, needed);
    if (k > candidates.size()) {
      return List.of();
    }
    List<List<TaskState>> out = new ArrayList<>();
    while (true) {
      out.add(pick(batches, nodeBatches, candidates.subList(0, k)));
      if (k >= candidates.size()) {
        return out;
      }
      k = Math.min(candidates.size(), Math.max(k + 1, 2 * k));
    }
  }

  private static int smallestPrefixCovering(
      List<String> candidates, Map<String, Long> capacity, long needed) {
    if (needed <= 0) {
      return 0;
    }
    long sum = 0;
    for (int i = 0; i < candidates.size(); i++) {
      sum += capacity.get(candidates.get(i));
      if (sum >= needed) {
        return i + 1;
      }
    }
    return candidates.size() + 1;
  }

  private static List<TaskState> pick(
      List<VictimBatch> batches, Map<String, List<Integer>> nodeBatches, List<String> nodes) {
    TreeSet<Integer> picked = new TreeSet<>();
    for (String node : nodes) {
      picked.addAll(nodeBatches.get(node));
    }
    List<TaskState> out = new ArrayList<>();
    for (int i : picked) {
      out.addAll(batches.get(i).tasks());
    }
    return out;
  }

  /** Free GPUs of the node now or once releasing tasks are gone, in hundredths. */
  private static long free(SessionView session, String node) {
    return session
        .findNode(node)
        .map(NodeState::idleOrReleasing)
        .map(r -> r.gpus().max(GpuAmount.ZERO).hundredths())
        .orElse(0L);
  }
}
