package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.ClusterSnapshot;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/**
 * What a plugin may read of the cycle it serves: the snapshot, the current placement of every task,
 * the hooks' composed orderings, and the cycle's typed state. Nothing here changes a placement;
 * only actions do that, through a {@link Statement}.
 */
public interface SessionView {
  ClusterSnapshot snapshot();

  /** The cycle's time: the snapshot's. */
  Instant now();

  ImmutableList<NodeState> nodes();

  Optional<NodeState> findNode(String name);

  ImmutableList<JobState> jobs();

  /**
   * The plugins' composed hooks, for the orderings (job, task, SubGroup) a plugin computes with.
   */
  PluginHooks hooks();

  /**
   * How this cycle searches, as the wiring chose: a plugin that caches a derived value does so
   * through {@link NodeSearch#reuse}, so the exhaustive search recomputes everything.
   */
  NodeSearch search();

  /** State plugins publish for each other and for the cycle's result, by typed key. */
  CycleState state();

  /** Changes whenever any task moves; lets plugins cache what depends on where pods are. */
  long placementVersion();

  /**
   * Whether a statement that is still open evicted the task (KAI's virtual status): a simulation
   * may place it again, so it counts among its job's tasks to allocate.
   */
  boolean evictedInOpenStatement(TaskState task);

  /**
   * GPUs the task counts for in its queue (kai-reference §5.2): placed, what it alone frees by
   * leaving; not placed, what placing it adds. A DRA GPU claim counts once per queue and node
   * however many pods share it (§8), so sum a set of tasks with {@link #quotaGpus(Collection)} or a
   * {@link #quotaGpuTally()}, never by adding up each task's.
   */
  GpuAmount quotaGpus(TaskState task);

  /**
   * GPUs the tasks count for together: their own, and each shared DRA GPU claim once, when no task
   * outside them holds it (see {@link QuotaGpuTally}).
   */
  GpuAmount quotaGpus(Collection<TaskState> tasks);

  /**
   * The same for limit checks of pending tasks (memory requests converted with the largest node).
   */
  GpuAmount limitCheckGpus(Collection<TaskState> tasks);

  /** An empty sum of {@link #quotaGpus(TaskState)}, for tasks told one by one. */
  QuotaGpuTally quotaGpuTally();

  /**
   * GPUs placed tasks hold together: their own, and each DRA GPU claim once per queue and node
   * however many of them use it.
   */
  GpuAmount heldGpus(Collection<TaskState> placed);
}
