package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * Everything one scheduling cycle decided and reports, as values: decisions in commit order, events
 * in the order they happened, every job of the snapshot with its tasks, every queue of the snapshot
 * in snapshot order, every node in snapshot order.
 */
public record CycleResult(
    ImmutableList<Decision> decisions,
    ImmutableList<CycleEvent> events,
    ImmutableList<JobOutcome> jobs,
    ImmutableList<QueueOutcome> queues,
    ImmutableList<NodeOutcome> nodes) {
  public CycleResult {
    requireNonNull(decisions, "decisions is null");
    requireNonNull(events, "events is null");
    requireNonNull(jobs, "jobs is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(nodes, "nodes is null");
  }
}
