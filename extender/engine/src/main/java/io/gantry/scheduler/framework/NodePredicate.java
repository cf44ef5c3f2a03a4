package io.gantry.scheduler.framework;

/**
 * Decides whether a task may go to a node. All plugins must pass; the first failure is reported.
 * Called with the session's current state; must not change it.
 */
public interface NodePredicate extends Plugin {
  FitStatus filter(TaskState task, NodeState node);
}
