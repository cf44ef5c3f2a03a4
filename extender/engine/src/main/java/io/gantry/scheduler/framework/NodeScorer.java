package io.gantry.scheduler.framework;

import java.util.List;

/**
 * Scores nodes for a task; scores of all plugins are summed, ties go to the node name that sorts
 * first. {@code preOrder} sees all candidate nodes once per task before any {@code score} call.
 */
public interface NodeScorer extends Plugin {
  void preOrder(TaskState task, List<NodeState> candidates);

  double score(TaskState task, NodeState node);
}
