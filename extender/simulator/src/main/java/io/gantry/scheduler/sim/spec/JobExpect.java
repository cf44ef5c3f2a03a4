package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Optional;

/**
 * What a job should look like after the run.
 *
 * @param status a task status shared by all of the job's tasks, or {@code Mixed}
 * @param nodes the set of nodes the job's tasks use, in file order
 * @param taskStatuses how many tasks are in each status
 */
public record JobExpect(
    Optional<String> status,
    Optional<List<String>> nodes,
    Optional<ImmutableSortedMap<String, Integer>> taskStatuses,
    Optional<String> messageContains,
    int line) {
  public static final String MIXED = "Mixed";

  /** The statuses a job may be expected in: any task status, or Mixed. */
  public static final List<String> STATUSES =
      ImmutableList.<String>builder().addAll(TaskExpect.STATUSES).add(MIXED).build();

  public JobExpect {
    requireNonNull(status, "status is null");
    nodes = requireNonNull(nodes, "nodes is null").map(ImmutableList::<String>copyOf);
    requireNonNull(taskStatuses, "taskStatuses is null");
    requireNonNull(messageContains, "messageContains is null");
  }
}
