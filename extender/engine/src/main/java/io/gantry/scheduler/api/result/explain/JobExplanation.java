package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Why one job runs or waits after a cycle on a snapshot. {@code status}: each task status and how
 * many tasks have it, e.g. {@code 2 Pending, 1 Running}. {@code globalPosition} and {@code
 * queuePosition} are 1-based places in the order the next allocate would try waiting jobs ({@link
 * PendingJobOrder}; empty when the job is not waiting to be allocated), with the jobs ahead of it
 * in its queue. {@code queues} runs from the job's leaf queue to the root. {@code reasons} and
 * {@code closestNodes} describe the first task no node took. {@code evictions} are hypothetical.
 */
public record JobExplanation(
    String jobId,
    String queue,
    String status,
    OptionalInt globalPosition,
    int globalLength,
    OptionalInt queuePosition,
    int queueLength,
    ImmutableList<String> aheadInQueue,
    ImmutableList<QueueStanding> queues,
    Optional<HoldBack> holdBack,
    Optional<String> fitMessage,
    ImmutableList<ReasonCount> reasons,
    ImmutableList<NodeRoom> closestNodes,
    ImmutableList<EvictionOption> evictions,
    GangFit gang) {
  public JobExplanation {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(queue, "queue is null");
    requireNonNull(status, "status is null");
    requireNonNull(globalPosition, "globalPosition is null");
    requireNonNull(queuePosition, "queuePosition is null");
    requireNonNull(aheadInQueue, "aheadInQueue is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(holdBack, "holdBack is null");
    requireNonNull(fitMessage, "fitMessage is null");
    requireNonNull(reasons, "reasons is null");
    requireNonNull(closestNodes, "closestNodes is null");
    requireNonNull(evictions, "evictions is null");
    requireNonNull(gang, "gang is null");
  }
}
