package io.gantry.scheduler.framework;

/**
 * Decides whether a task may go to a node. All plugins must pass; the first failure is reported.
 * Called with the session's current state; must not change it. The answer depends only on the
 * task's {@link TaskShape} and the session's state: the engine reuses a failure for every task of
 * the same shape until a task moves.
 */
public interface NodePredicate extends Plugin {
  FitStatus filter(TaskState task, NodeState node);

  /**
   * Whether, for this task, {@link #filter} reads of the node only what its {@link NodeClass} holds
   * (not its name or labels), so every node of a class gets the same answer. The engine then
   * explains a task no node takes by checking one node per class. False unless the plugin says so.
   */
  default boolean readsOnlyNodeClass(TaskState task) {
    return false;
  }
}
