package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

/**
 * One pending job in the allocation order: its id ({@code namespace/name}), leaf queue, priority.
 */
public record OrderedJob(String jobId, String queue, int priority) {
  public OrderedJob {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(queue, "queue is null");
  }
}
