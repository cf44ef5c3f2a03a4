package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.ArrayList;
import java.util.List;

/** Checks that every parent names a queue and that following parents always ends at a root. */
final class QueueParentCheck {
  private QueueParentCheck() {}

  static void check(String sourceName, List<QueueSpec> queues) throws ScenarioException {
    ImmutableMap.Builder<String, QueueSpec> builder = ImmutableMap.builder();
    for (QueueSpec queue : queues) {
      builder.put(queue.name(), queue);
    }
    ImmutableMap<String, QueueSpec> byName = builder.buildOrThrow();
    for (int i = 0; i < queues.size(); i++) {
      QueueSpec queue = queues.get(i);
      if (queue.parent().isPresent() && !byName.containsKey(queue.parent().get())) {
        throw parentError(
            sourceName, i, queue, "unknown queue " + Field.quote(queue.parent().get()));
      }
    }
    for (int i = 0; i < queues.size(); i++) {
      QueueSpec queue = queues.get(i);
      List<String> chain = new ArrayList<>(List.of(queue.name()));
      QueueSpec current = queue;
      while (current.parent().isPresent()) {
        String parent = current.parent().get();
        if (parent.equals(queue.name())) {
          chain.add(parent);
          throw parentError(
              sourceName,
              i,
              queue,
              "queue "
                  + Field.quote(queue.name())
                  + " is in a cycle: "
                  + String.join(" -> ", chain));
        }
        if (chain.contains(parent)) {
          // A cycle above this queue, reported at the first queue in file order that is on it.
          break;
        }
        chain.add(parent);
        current = byName.get(parent);
      }
    }
  }

  private static ScenarioException parentError(
      String sourceName, int index, QueueSpec queue, String problem) {
    int line = queue.fieldLines().getOrDefault("parent", queue.line());
    return new ScenarioException(sourceName, line, "queues[" + index + "].parent", problem);
  }
}
