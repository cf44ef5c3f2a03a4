package io.gantry.scheduler.framework;

/**
 * A node scorer that can say how its score orders nodes for a task relative to the {@link
 * NodeIndex} (fewest free whole GPUs first, then name). When every scorer can, the allocator walks
 * the index instead of scoring every node, with the same result.
 */
public interface IndexOrderedScorer extends NodeScorer {
  enum Order {
    /** The score does not follow the index order for this task. */
    NONE,
    /** The same score on every node. */
    CONSTANT,
    /** Strictly higher the fewer whole GPUs a node has free (bin-packing). */
    FEWER_FREE_GPUS_FIRST,
    /** A dominant bonus for nodes where the task fits in idle resources now. */
    IDLE_FIT_FIRST
  }

  Order orderFor(TaskState task);
}
