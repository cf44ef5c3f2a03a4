package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;

/**
 * The {@code expect} section, keyed by expanded names: jobs and nodes as {@code sweep-0}, tasks as
 * {@code job/task} (e.g. {@code dist/worker-0}).
 */
public record ExpectSpec(
    ImmutableSortedMap<String, JobExpect> jobs,
    ImmutableSortedMap<String, TaskExpect> tasks,
    ImmutableSortedMap<String, QueueExpect> queues,
    ImmutableSortedMap<String, NodeExpect> nodes) {
  /** The expectations of a file without an {@code expect} section. */
  public static final ExpectSpec EMPTY =
      new ExpectSpec(
          ImmutableSortedMap.of(),
          ImmutableSortedMap.of(),
          ImmutableSortedMap.of(),
          ImmutableSortedMap.of());

  public ExpectSpec {
    requireNonNull(jobs, "jobs is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(nodes, "nodes is null");
  }
}
