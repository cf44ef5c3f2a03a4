package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.time.Instant;

/**
 * Everything one scheduling cycle looks at. Nodes are sorted by name; queues and jobs keep source
 * order (which is also their tie-breaking order).
 */
public record ClusterSnapshot(
    Instant now,
    ImmutableList<NodeInfo> nodes,
    ImmutableList<QueueInfo> queues,
    ImmutableList<JobInfo> jobs) {

  public ClusterSnapshot {
    requireNonNull(now, "now is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(jobs, "jobs is null");
  }
}
