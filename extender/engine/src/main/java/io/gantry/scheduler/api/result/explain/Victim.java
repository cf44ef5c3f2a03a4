package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

/** A pod an eviction action would evict: its job, task and node. */
public record Victim(String jobId, String taskId, String node) {
  public Victim {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(taskId, "taskId is null");
    requireNonNull(node, "node is null");
  }
}
