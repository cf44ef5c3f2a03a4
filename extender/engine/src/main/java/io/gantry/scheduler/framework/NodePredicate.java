package io.gantry.scheduler.framework;

/**
 * Decides whether a task may go to a node. All plugins must pass; the first failure is reported.
 * Called with the session's current state; must not change it. The answer depends only on the
 * task's {@link TaskShape} and the session's state: the engine reuses a failure for every task of
 * the same shape until a task moves.
 */
public interface NodePredicate extends Plugin {
  FitStatus filter(TaskState task, NodeState node);
}
