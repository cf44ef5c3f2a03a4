package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.ResourceVector;
import java.util.Optional;

/**
 * One queue as allocate sees it: quota and limit as configured (-1: unlimited; GPU devices, CPU
 * millicores, memory bytes), the fair share divided this cycle and what its subtree holds; how many
 * of its subtree's jobs wait and the first of them in allocation order.
 */
public record QueueStanding(
    String name,
    Optional<String> parent,
    int depth,
    ResourceVector quota,
    ResourceVector fairShare,
    ResourceVector allocated,
    ResourceVector limit,
    int pendingJobs,
    ImmutableList<String> firstPending) {
  public QueueStanding {
    requireNonNull(name, "name is null");
    requireNonNull(parent, "parent is null");
    requireNonNull(quota, "quota is null");
    requireNonNull(fairShare, "fairShare is null");
    requireNonNull(allocated, "allocated is null");
    requireNonNull(limit, "limit is null");
    requireNonNull(firstPending, "firstPending is null");
  }
}
