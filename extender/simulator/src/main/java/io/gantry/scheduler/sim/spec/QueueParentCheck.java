package io.gantry.scheduler.sim.spec;

import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.QueueHierarchy;
import java.util.List;
import java.util.Optional;

/**
 * Checks that every parent names a queue and that following parents always ends at a root, in the
 * words the scheduler gives a pod of such a queue ({@link QueueHierarchy}): a missing parent is
 * reported at the queue that names it, a cycle at its first queue in file order.
 */
final class QueueParentCheck {
  private QueueParentCheck() {}

  static void check(String sourceName, List<QueueSpec> queues) throws ScenarioException {
    QueueHierarchy hierarchy = QueueSpec.hierarchy(queues);
    for (int i = 0; i < queues.size(); i++) {
      QueueSpec queue = queues.get(i);
      Optional<QueueHierarchy.Problem> problem = hierarchy.parentProblem(queue.name());
      if (problem.isPresent()
          && problem.get() instanceof QueueHierarchy.MissingParent missing
          && missing.queue().equals(queue.name())) {
        throw parentError(sourceName, i, queue, missing.describe(Field::quote));
      }
    }
    for (int i = 0; i < queues.size(); i++) {
      QueueSpec queue = queues.get(i);
      Optional<QueueHierarchy.Problem> problem = hierarchy.parentProblem(queue.name());
      // a queue under a cycle is left to the cycle's first queue in file order
      if (problem.isPresent()
          && problem.get() instanceof QueueHierarchy.Cycle cycle
          && cycle.chain().get(0).equals(queue.name())) {
        throw parentError(sourceName, i, queue, cycle.describe(Field::quote));
      }
    }
  }

  private static ScenarioException parentError(
      String sourceName, int index, QueueSpec queue, String problem) {
    int line = queue.fieldLines().getOrDefault("parent", queue.line());
    return new ScenarioException(sourceName, line, "queues[" + index + "].parent", problem);
  }
}
