package io.gantry.scheduler.framework;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.framework.fit.CapacityExceeded;
import java.util.List;
import java.util.Optional;

/**
 * Queue capacity checks at allocation time (kai-reference §5.5). Only the first plugin that
 * implements this hook is consulted, as in KAI. An empty result means the placement is within every
 * limit and quota.
 */
public interface CapacityPolicy extends Plugin {
  /** Whether placing {@code tasks} of {@code job} would take a queue over its limit or quota. */
  Optional<CapacityExceeded> checkJob(JobState job, List<TaskState> tasks);

  /**
   * The same checks for one task whose GPU amount on the chosen node is {@code gpus}; depends only
   * on the task's {@link TaskShape}, {@code gpus} and the session's state.
   */
  Optional<CapacityExceeded> checkTaskOnNode(TaskState task, NodeState node, GpuAmount gpus);
}
