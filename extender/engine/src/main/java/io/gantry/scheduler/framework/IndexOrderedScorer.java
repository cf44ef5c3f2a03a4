package io.gantry.scheduler.framework;

/**
 * A node scorer that can say how its score orders nodes for a task in terms the {@link NodeIndex}
 * keeps. When every scorer can, and exactly one of them orders by a free resource, the allocator
 * walks the index instead of scoring every node, with the same result.
 *
 * <p>The orders are tiers of KAI's node score (kai-reference §6), highest first: a shared GPU the
 * task fits on (1e4), fitting in idle resources now (1e3), a multi-GPU task's GPUs inside one
 * interconnect domain (50, Gantry's), a CPU-only node for a CPU-only task (10), then bin-packing by
 * free resource (at most 9). Each tier's bonus exceeds everything the tiers below it can add, so
 * the summed score orders nodes tier by tier, then by name.
 */
public interface IndexOrderedScorer extends NodeScorer {
  enum Order {
    /** The score does not follow an index order for this task. */
    NONE,
    /** The same score on every node. */
    CONSTANT,
    /** Strictly higher the fewer whole GPUs a node has free or releasing (bin-packing). */
    FEWER_FREE_GPUS_FIRST,
    /**
     * Strictly higher the less CPU a node has free or releasing (bin-packing CPU-only tasks, which
     * ask for some CPU, so nodes without CPU cannot take them).
     */
    FEWER_FREE_CPU_FIRST,
    /** A bonus for nodes where the task fits in idle resources now. */
    IDLE_FIT_FIRST,
    /**
     * A bonus, above the idle-fit bonus, for nodes with a shared GPU (not wholly releasing) whose
     * free or releasing portion holds the task's portion, which is the same on every node.
     */
    SHARED_GPU_FIT_FIRST,
    /** A bonus, below the idle-fit bonus and above bin-packing, for nodes without GPUs. */
    CPU_ONLY_NODES_FIRST,
    /**
     * A bonus, below the idle-fit bonus and above bin-packing, for nodes with at least as many free
     * GPUs inside one interconnect domain ({@link NodeState#freeGpusInOneDomain()}) as the whole
     * GPUs the task asks for.
     */
    ONE_DOMAIN_FIT_FIRST
  }

  Order orderFor(TaskState task);
}
