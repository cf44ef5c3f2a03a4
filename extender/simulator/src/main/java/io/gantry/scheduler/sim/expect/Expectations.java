package io.gantry.scheduler.sim.expect;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;

/**
 * A scenario's {@code expect:} block, as the loader binds it and the checker reads it. Keys are
 * expanded names: jobs by the job's name in the file ({@code sweep-0}), tasks as {@code <job
 * name>/<task name>} ({@code dist/worker-0}), queues and nodes by name. Sorted maps, so mismatches
 * come out in key order.
 */
public record Expectations(
    ImmutableSortedMap<String, JobExpectation> jobs,
    ImmutableSortedMap<String, TaskExpectation> tasks,
    ImmutableSortedMap<String, QueueExpectation> queues,
    ImmutableSortedMap<String, NodeExpectation> nodes) {
  /** The expectations of a file without an {@code expect:} block. */
  public static final Expectations NONE =
      new Expectations(
          ImmutableSortedMap.of(),
          ImmutableSortedMap.of(),
          ImmutableSortedMap.of(),
          ImmutableSortedMap.of());

  public Expectations {
    requireNonNull(jobs, "jobs is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(nodes, "nodes is null");
  }
}
