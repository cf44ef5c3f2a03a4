package io.gantry.extender;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.dra.DynamicResources;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/** Edits of an immutable snapshot the extender makes before it asks the engine. */
final class Snapshots {
  private Snapshots() {}

  /**
   * The snapshot with each task {@code edit} answers for replaced by its answer (empty: kept as
   * is), jobs and order kept.
   */
  static ClusterSnapshot mapTasks(ClusterSnapshot s, Function<TaskInfo, Optional<TaskInfo>> edit) {
    ImmutableList.Builder<JobInfo> jobs = ImmutableList.builderWithExpectedSize(s.jobs().size());
    for (JobInfo j : s.jobs()) {
      ImmutableList.Builder<TaskInfo> tasks = ImmutableList.builder();
      boolean changed = false;
      for (TaskInfo t : j.tasks()) {
        Optional<TaskInfo> e = edit.apply(t);
        changed |= e.isPresent();
        tasks.add(e.orElse(t));
      }
      jobs.add(changed ? withTasks(j, tasks.build()) : j);
    }
    return withJobs(s, jobs.build());
  }

  /** The snapshot without the jobs {@code keep} refuses. */
  static ClusterSnapshot filterJobs(ClusterSnapshot s, Predicate<JobInfo> keep) {
    return withJobs(s, s.jobs().stream().filter(keep).collect(ImmutableList.toImmutableList()));
  }

  /**
   * {@code s} with other jobs, its queue hierarchy kept; its Topology and DRA objects are not
   * carried over, as these edits never did.
   */
  private static ClusterSnapshot withJobs(ClusterSnapshot s, ImmutableList<JobInfo> jobs) {
    return new ClusterSnapshot(
        s.now(),
        s.nodes(),
        s.queues(),
        jobs,
        s.queueUsage(),
        ImmutableSortedMap.of(),
        DynamicResources.NONE,
        s.queueHierarchy());
  }

  static JobInfo withTasks(JobInfo j, ImmutableList<TaskInfo> tasks) {
    return j.with(tasks, j.lifecycle());
  }

  /** The task as it is once placed: {@code status} on {@code placement}'s node and GPUs. */
  static TaskInfo placed(TaskInfo t, TaskStatus status, PlannedNode placement) {
    return t.placedAs(
        status, Optional.of(placement.node()), placement.gpuGroups(), placement.gpuPortion());
  }

  /** The pod key ({@code namespace/name}) kube-scheduler knows a task's pod by. */
  static String podKey(TaskInfo t) {
    return t.namespace() + "/" + t.podName();
  }
}
