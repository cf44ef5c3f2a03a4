package io.gantry.scheduler.framework;

import java.util.Optional;

/**
 * A node scorer that scores a task the same on nodes of equal key in a {@link NodeGrouping}, so the
 * search can score one node per group instead of every node ({@link NodeGroupWalk}).
 *
 * <p>The key must also tell apart every node state the {@link IndexOrderedScorer} orders other than
 * bin-packing read (idle and releasing resources, whole devices, shared GPUs' portions and compute
 * modes, GPU memory and count, free GPUs in one interconnect domain), since the search scores the
 * other scorers on one node per group as well. Besides, {@link #preOrder} must give the same scores
 * when it sees one node per group as when it sees every node.
 */
public interface GroupedScorer extends NodeScorer {
  /** The grouping this scorer's score for the task follows; empty when it follows none. */
  Optional<NodeGrouping<?>> groupingFor(TaskState task);
}
