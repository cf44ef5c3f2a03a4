package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.time.Instant;

/**
 * One PodGroup. {@code root} is the SubGroup tree; a PodGroup without SubGroups has one PodSet
 * named {@code default} under a root named {@code ""}. {@code creationOrder} breaks ties the way
 * KAI's UID does: earlier in the source, smaller. {@code lifecycle} holds the PodGroup's timestamps
 * and delays.
 */
public record JobInfo(
    String id,
    String name,
    String namespace,
    String queue,
    int priority,
    boolean preemptible,
    Instant createdAt,
    long creationOrder,
    SubGroupSet root,
    ImmutableList<TaskInfo> tasks,
    JobLifecycle lifecycle) {

  public static final String DEFAULT_POD_SET = "default";

  public JobInfo {
    requireNonNull(id, "id is null");
    requireNonNull(name, "name is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(queue, "queue is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(root, "root is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(lifecycle, "lifecycle is null");
  }

  /** A PodGroup that carries no timestamps, delay or grace period ({@link JobLifecycle#NONE}). */
  public JobInfo(
      String id,
      String name,
      String namespace,
      String queue,
      int priority,
      boolean preemptible,
      Instant createdAt,
      long creationOrder,
      SubGroupSet root,
      ImmutableList<TaskInfo> tasks) {
    this(
        id,
        name,
        namespace,
        queue,
        priority,
        preemptible,
        createdAt,
        creationOrder,
        root,
        tasks,
        JobLifecycle.NONE);
  }

  /** This job with {@code tasks} and {@code lifecycle} in place of its own. */
  public JobInfo with(ImmutableList<TaskInfo> tasks, JobLifecycle lifecycle) {
    return new JobInfo(
        id,
        name,
        namespace,
        queue,
        priority,
        preemptible,
        createdAt,
        creationOrder,
        root,
        tasks,
        lifecycle);
  }
}
