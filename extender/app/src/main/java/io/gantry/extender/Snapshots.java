package io.gantry.extender;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
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
    return new ClusterSnapshot(s.now(), s.nodes(), s.queues(), jobs.build(), s.queueUsage());
  }

  /** The snapshot without the jobs {@code keep} refuses. */
  static ClusterSnapshot filterJobs(ClusterSnapshot s, Predicate<JobInfo> keep) {
    return new ClusterSnapshot(
        s.now(),
        s.nodes(),
        s.queues(),
        s.jobs().stream().filter(keep).collect(ImmutableList.toImmutableList()),
        s.queueUsage());
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
