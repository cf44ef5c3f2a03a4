package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.JobLifecycle;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** The mutable view of one job during a session: its tasks and the fit errors it collected. */
public final class JobState {
  private final JobInfo info;
  private final ImmutableList<TaskState> tasks;
  private final ImmutableMap<String, ImmutableList<TaskState>> tasksByPodSet;
  private final ImmutableList<PodSet> podSets;
  private final List<JobFitReason> fitErrors = new ArrayList<>();
  private long version;
  private JobLifecycle lifecycle;

  JobState(JobInfo info) {
    this.info = info;
    this.lifecycle = info.lifecycle();
    ImmutableList.Builder<TaskState> b = ImmutableList.builderWithExpectedSize(info.tasks().size());
    boolean onePodSet = true;
    for (TaskInfo t : info.tasks()) {
      b.add(new TaskState(t, this));
      onePodSet &= t.podSetName().equals(info.tasks().get(0).podSetName());
    }
    this.tasks = b.build();
    if (tasks.isEmpty()) {
      this.tasksByPodSet = ImmutableMap.of();
    } else if (onePodSet) {
      // most jobs: no multimap to build
      this.tasksByPodSet = ImmutableMap.of(tasks.get(0).info().podSetName(), tasks);
    } else {
      Map<String, ImmutableList.Builder<TaskState>> byPodSet = new LinkedHashMap<>();
      for (TaskState t : tasks) {
        byPodSet.computeIfAbsent(t.info().podSetName(), k -> ImmutableList.builder()).add(t);
      }
      ImmutableMap.Builder<String, ImmutableList<TaskState>> built = ImmutableMap.builder();
      byPodSet.forEach((name, members) -> built.put(name, members.build()));
      this.tasksByPodSet = built.buildOrThrow();
    }
    List<PodSet> sets = new ArrayList<>();
    collectPodSets(info.root(), sets);
    this.podSets = ImmutableList.copyOf(sets);
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
    return tasksByPodSet.getOrDefault(podSet.name(), ImmutableList.of());
  }

  public long count(PodSet podSet, Predicate<TaskStatus> which) {
    long n = 0;
    for (TaskState t : tasks(podSet)) {
      if (which.test(t.status())) {
        n++;
      }
    }
    return n;
  }

  public long count(Predicate<TaskStatus> which) {
    long n = 0;
    for (TaskState t : tasks) {
      if (which.test(t.status())) {
        n++;
      }
    }
    return n;
  }

  public boolean hasPendingTasks() {
    for (TaskState t : tasks) {
      if (t.status() == TaskStatus.PENDING) {
        return true;
      }
    }
    return false;
  }

  public List<PodSet> podSets() {
    return podSets;
  }

  /**
   * Changes whenever one of the job's tasks moves, so what depends only on the job's own tasks (its
   * tasks to allocate, its request, its order among jobs) can be cached per version.
   */
  public long version() {
    return version;
  }

  void changed() {
    version++;
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
