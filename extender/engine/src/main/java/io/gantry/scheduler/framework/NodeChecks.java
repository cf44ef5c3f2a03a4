package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NodeFitReason;

/**
 * Every check an allocator makes of a node for a task (predicates, free resources, capacity on the
 * node), for a {@link NodeSearch} to call on the nodes it visits. Reads the session as it stands;
 * changes nothing.
 */
@FunctionalInterface
public interface NodeChecks {
  /** Why the node cannot take the task; empty when it can. */
  ImmutableList<NodeFitReason> unfit(TaskState task, NodeState node);
}
