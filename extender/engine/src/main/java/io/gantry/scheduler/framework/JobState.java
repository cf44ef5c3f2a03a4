package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.JobLifecycle;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** The mutable view of one job during a session: its tasks and the fit errors it collected. */
public final class JobState {
  private final JobInfo info;
  private final ImmutableList<TaskState> tasks;
  private final ImmutableListMultimap<String, TaskState> tasksByPodSet;
  private final List<JobFitReason> fitErrors = new ArrayList<>();
  private JobLifecycle lifecycle;

  JobState(JobInfo info) {
    this.info = info;
    this.lifecycle = info.lifecycle();
    ImmutableList.Builder<TaskState> b = ImmutableList.builder();
    ImmutableListMultimap.Builder<String, TaskState> byPodSet = ImmutableListMultimap.builder();
    for (TaskInfo t : info.tasks()) {
      TaskState state = new TaskState(t, this);
      b.add(state);
      byPodSet.put(t.podSetName(), state);
    }
    this.tasks = b.build();
    this.tasksByPodSet = byPodSet.build();
  }

  public JobInfo info() {
    return info;
  }

  public String id() {
    return info.id();
  }

  public ImmutableList<TaskState> tasks() {
    return tasks;
  }

  public ImmutableList<TaskState> tasks(PodSet podSet) {
    return tasksByPodSet.get(podSet.name());
  }

  public long count(PodSet podSet, Predicate<TaskStatus> which) {
    return tasks(podSet).stream().filter(t -> which.test(t.status())).count();
  }

  public long count(Predicate<TaskStatus> which) {
    return tasks.stream().filter(t -> which.test(t.status())).count();
  }

  public boolean hasPendingTasks() {
    return tasks.stream().anyMatch(t -> t.status() == TaskStatus.PENDING);
  }

  public List<PodSet> podSets() {
    List<PodSet> out = new ArrayList<>();
    collectPodSets(info.root(), out);
    return out;
  }

  private static void collectPodSets(SubGroupNode node, List<PodSet> out) {
    if (node instanceof PodSet p) {
      out.add(p);
    } else if (node instanceof SubGroupSet s) {
      for (SubGroupNode child : s.children()) {
        collectPodSets(child, out);
      }
    }
  }

  /**
   * The PodGroup's timestamps as this cycle leaves them: the snapshot's, updated when the job
   * starts, is evicted from, or turns stale or healthy.
   */
  public JobLifecycle lifecycle() {
    return lifecycle;
  }

  void setLifecycle(JobLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  public List<JobFitReason> fitErrors() {
    return List.copyOf(fitErrors);
  }

  void addFitError(JobFitReason error) {
    fitErrors.add(error);
  }
}
