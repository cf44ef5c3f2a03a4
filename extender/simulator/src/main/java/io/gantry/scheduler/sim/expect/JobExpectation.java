package io.gantry.scheduler.sim.expect;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Optional;

/**
 * What one job should end with; an empty field is not checked.
 *
 * @param status a task status shared by all of the job's tasks, or {@code Mixed}
 * @param nodes the set of nodes the job's tasks use; order and repeats do not matter
 * @param taskStatuses how many tasks are in each status: the whole count per status
 * @param messageContains a substring of the job's message
 */
public record JobExpectation(
    Optional<String> status,
    Optional<List<String>> nodes,
    Optional<ImmutableSortedMap<String, Integer>> taskStatuses,
    Optional<String> messageContains) {
  public static final String MIXED = "Mixed";

  /** The statuses a job may be expected in: any task status, or Mixed. */
  public static final List<String> STATUSES =
      ImmutableList.<String>builder().addAll(TaskExpectation.STATUSES).add(MIXED).build();

  public JobExpectation {
    requireNonNull(status, "status is null");
    nodes = requireNonNull(nodes, "nodes is null").<List<String>>map(ImmutableList::copyOf);
    requireNonNull(taskStatuses, "taskStatuses is null");
    requireNonNull(messageContains, "messageContains is null");
  }
}
