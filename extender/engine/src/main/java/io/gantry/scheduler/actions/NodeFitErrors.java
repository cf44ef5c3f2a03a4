package io.gantry.scheduler.actions;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Why no node took a task, aggregated the way kube-scheduler and KAI print it: {@code 0/3 nodes are
 * available: 1 node(s) had untolerated taint {a: b}, 2 node(s) didn't have enough resources:
 * GPUs.}, reasons sorted.
 */
final class NodeFitErrors {
  private final TreeMap<String, Integer> counts = new TreeMap<>();
  private int nodes;

  void add(String reason) {
    counts.merge(reason, 1, Integer::sum);
    nodes++;
  }

  boolean isEmpty() {
    return counts.isEmpty();
  }

  String message(int totalNodes) {
    String reasons =
        counts.entrySet().stream()
            .map((Map.Entry<String, Integer> e) -> e.getValue() + " " + e.getKey())
            .collect(Collectors.joining(", "));
    int available = totalNodes - nodes;
    return available + "/" + totalNodes + " nodes are available: " + reasons + ".";
  }
}
