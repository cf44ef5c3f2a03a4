package io.gantry.scheduler.sim.report;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Optional;

/**
 * What one job should end with; an empty field is not checked. {@code nodes} is the set of nodes
 * the job's tasks use (order and repeats do not matter); {@code taskStatuses} the whole count per
 * status; {@code messageContains} a substring of the job's message.
 */
public record JobExpectation(
    Optional<String> status,
    Optional<List<String>> nodes,
    Optional<ImmutableSortedMap<String, Integer>> taskStatuses,
    Optional<String> messageContains) {
  public JobExpectation {
    requireNonNull(status, "status is null");
    nodes = requireNonNull(nodes, "nodes is null").<List<String>>map(ImmutableList::copyOf);
    requireNonNull(taskStatuses, "taskStatuses is null");
    requireNonNull(messageContains, "messageContains is null");
  }
}
