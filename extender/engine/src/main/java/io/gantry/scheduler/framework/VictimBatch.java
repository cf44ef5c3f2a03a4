package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * Tasks of one victim job taken together: one elastic surplus pod, a surplus child SubGroup, or the
 * whole gang (kai-reference §10.1). A batch is evicted as a whole or not at all.
 */
public record VictimBatch(JobState job, ImmutableList<TaskState> tasks) {
  public VictimBatch {
    requireNonNull(job, "job is null");
    requireNonNull(tasks, "tasks is null");
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("a victim batch has at least one task");
    }
  }
}
