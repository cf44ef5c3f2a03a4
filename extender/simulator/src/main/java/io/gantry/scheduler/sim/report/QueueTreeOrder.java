package io.gantry.scheduler.sim.report;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.sim.SimulationResult.QueueResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queues as a tree, depth first: each top-level queue (or one whose parent the result does not
 * list) in result order, then its children in result order, each with the prefix that draws the
 * tree ({@code ├─ }, {@code └─ }, {@code │ }).
 */
final class QueueTreeOrder {
  /** One queue and the tree drawing before its name. */
  record Row(QueueResult queue, String prefix) {}

  private QueueTreeOrder() {}

  static ImmutableList<Row> of(List<QueueResult> queues) {
    Map<String, QueueResult> byName = new LinkedHashMap<>();
    queues.forEach(q -> byName.put(q.queue(), q));
    Map<String, List<QueueResult>> children = new LinkedHashMap<>();
    List<QueueResult> roots = new ArrayList<>();
    for (QueueResult q : queues) {
      if (q.parent().isPresent() && byName.containsKey(q.parent().get())) {
        children.computeIfAbsent(q.parent().get(), p -> new ArrayList<>()).add(q);
      } else {
        roots.add(q);
      }
    }
    ImmutableList.Builder<Row> out = ImmutableList.builder();
    for (QueueResult root : roots) {
      out.add(new Row(root, ""));
      walk(root, "", children, out);
    }
    return out.build();
  }

  private static void walk(
      QueueResult parent,
      String indent,
      Map<String, List<QueueResult>> children,
      ImmutableList.Builder<Row> out) {
    List<QueueResult> kids = children.getOrDefault(parent.queue(), List.of());
    for (int i = 0; i < kids.size(); i++) {
      boolean last = i == kids.size() - 1;
      out.add(new Row(kids.get(i), indent + (last ? "└─ " : "├─ ")));
      walk(kids.get(i), indent + (last ? "   " : "│  "), children, out);
    }
  }
}
