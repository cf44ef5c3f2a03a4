package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The tasks a job would place in its next pass (kai-reference §4.4): while a SubGroupSet's
 * requirement is unmet, enough tasks to satisfy its first required members; once met, one task of
 * the first member that still has pending tasks (elastic growth, one pod per pass).
 */
public final class TasksToAllocate {
  private final PluginHooks hooks;
  private final Predicate<TaskState> waiting;

  /** Pending tasks wait for a place. */
  public TasksToAllocate(PluginHooks hooks) {
    this.hooks = hooks;
    this.waiting = TasksToAllocate::pending;
  }

  /**
   * Pending tasks, and tasks an open statement of {@code session} evicted (KAI counts them while it
   * simulates, since the simulation may place them again), wait for a place.
   */
  public TasksToAllocate(SessionView session) {
    this.hooks = session.hooks();
    this.waiting = t -> pending(t) || session.evictedInOpenStatement(t);
  }

  public ImmutableList<TaskState> of(JobState job) {
    return of(job, waiting);
  }

  /**
   * The same, taking the tasks {@code allocatable} accepts as the ones waiting for a place: a
   * simulation re-placing victims also counts the tasks it evicted (KAI's not-real allocation).
   */
  public ImmutableList<TaskState> of(JobState job, Predicate<TaskState> allocatable) {
    SubGroupNode node = job.info().root();
    while (node instanceof SubGroupSet set && wantsWhatItsOnlyChildWants(set)) {
      node = set.children().get(0);
    }
    if (node instanceof PodSet p && job.tasks(p).size() == 1) {
      // most jobs, asked for on every pass and queue comparison: the pass is the job's one task
      // when it waits, and the job's own list of it says so without building one
      ImmutableList<TaskState> only = job.tasks(p);
      return allocatable.test(only.get(0)) ? only : ImmutableList.of();
    }
    List<TaskState> out = new ArrayList<>();
    collect(job, node, allocatable, out);
    return ImmutableList.copyOf(out);
  }

  /**
   * A PodGroup without SubGroups: whether its one child is satisfied or not, the pass is what the
   * child wants (a child with nothing waiting wants nothing).
   */
  private static boolean wantsWhatItsOnlyChildWants(SubGroupSet set) {
    return set.children().size() == 1 && set.required() <= 1;
  }

  private static boolean pending(TaskState task) {
    return task.status() == TaskStatus.PENDING;
  }

  public SubGroupProgress progress(JobState job, SubGroupNode node) {
    return progress(job, node, TaskStatus::isActiveAllocated);
  }

  /**
   * How far the SubGroup is satisfied counting the tasks whose status {@code counted} accepts: a
   * PodSet by its counted tasks against minMember, a SubGroupSet by its satisfied children against
   * the number it requires.
   */
  public SubGroupProgress progress(JobState job, SubGroupNode node, Predicate<TaskStatus> counted) {
    if (node instanceof PodSet p) {
      long allocated = job.count(p, counted);
      return new SubGroupProgress(p, allocated >= p.minMember(), allocated, p.minMember());
    }
    SubGroupSet s = (SubGroupSet) node;
    long satisfied = 0;
    for (SubGroupNode c : s.children()) {
      if (progress(job, c, counted).satisfied()) {
        satisfied++;
      }
    }
    return new SubGroupProgress(s, satisfied >= s.required(), satisfied, s.required());
  }

  private void collect(
      JobState job, SubGroupNode node, Predicate<TaskState> allocatable, List<TaskState> out) {
    if (node instanceof PodSet p) {
      ImmutableList<TaskState> members = job.tasks(p);
      if (members.size() == 1) {
        // most jobs: a pass wants at least one task, so the one task goes when it waits
        TaskState only = members.get(0);
        if (allocatable.test(only)) {
          out.add(only);
        }
        return;
      }
      List<TaskState> pending = pendingInOrder(job, p, allocatable);
      long allocated = job.count(p, TaskStatus::isActiveAllocated);
      long want = allocated >= p.minMember() ? 1 : p.minMember() - allocated;
      int take = (int) Math.min(want, pending.size());
      for (int i = 0; i < take; i++) {
        out.add(pending.get(i));
      }
      return;
    }
    SubGroupSet set = (SubGroupSet) node;
    if (wantsWhatItsOnlyChildWants(set)) {
      collect(job, set.children().get(0), allocatable, out);
      return;
    }
    List<SubGroupProgress> members = new ArrayList<>();
    for (SubGroupNode child : set.children()) {
      members.add(progress(job, child));
    }
    if (members.size() > 1) {
      members.sort(hooks::compareSubGroups);
    }
    long satisfied = 0;
    for (SubGroupProgress m : members) {
      if (m.satisfied()) {
        satisfied++;
      }
    }
    if (satisfied < set.required()) {
      int taken = 0;
      for (SubGroupProgress m : members) {
        if (taken >= set.required()) {
          break;
        }
        taken++;
        if (!m.satisfied()) {
          collect(job, m.node(), allocatable, out);
        }
      }
      return;
    }
    for (SubGroupProgress m : members) {
      if (hasPending(job, m.node(), allocatable)) {
        collect(job, m.node(), allocatable, out);
        return;
      }
    }
  }

  private List<TaskState> pendingInOrder(
      JobState job, PodSet podSet, Predicate<TaskState> allocatable) {
    List<TaskState> pending = new ArrayList<>();
    for (TaskState t : job.tasks(podSet)) {
      if (allocatable.test(t)) {
        pending.add(t);
      }
    }
    if (pending.size() > 1) {
      // most jobs have one pod: nothing to order, asked for every job each pass and queue order
      pending.sort(hooks::compareTasks);
    }
    return pending;
  }

  private boolean hasPending(JobState job, SubGroupNode node, Predicate<TaskState> allocatable) {
    if (node instanceof PodSet p) {
      for (TaskState t : job.tasks(p)) {
        if (allocatable.test(t)) {
          return true;
        }
      }
      return false;
    }
    for (SubGroupNode c : ((SubGroupSet) node).children()) {
      if (hasPending(job, c, allocatable)) {
        return true;
      }
    }
    return false;
  }
}
