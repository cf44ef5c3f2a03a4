package io.gantry.scheduler.framework;

/**
 * A {@link NodeSearch} over every node of one session, serving one allocator: it may remember what
 * it found while the session's placement version holds, so it is not shared between allocators.
 * Single-threaded.
 */
@FunctionalInterface
public interface NodeFinder {
  /**
   * The node the summed node score ranks highest among those that pass every check (the first in
   * node order among equals), or why each node refused the task, grouped as {@link RejectionTally}
   * groups them.
   */
  NodeFinding find(TaskState task);
}
