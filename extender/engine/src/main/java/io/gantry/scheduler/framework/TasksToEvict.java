package io.gantry.scheduler.framework;

import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The next eviction batch of a victim job (kai-reference §10.1): elastic surplus first — one
 * surplus pod of the lowest-ordered PodSet (the last in task order), or a whole surplus child
 * SubGroup — and only when no surplus remains, the whole gang. {@code remaining} holds the job's
 * active tasks not yet taken as victims; surplus is counted against them.
 */
public final class TasksToEvict {
  private final PluginHooks hooks;

  public TasksToEvict(PluginHooks hooks) {
    this.hooks = hooks;
  }

  /** A batch, in task order; the whole remaining gang when nothing is surplus. */
  public List<TaskState> next(JobState job, Set<TaskState> remaining) {
    List<TaskState> surplus = surplus(job, job.info().root(), remaining);
    if (!surplus.isEmpty()) {
      return surplus;
    }
    return inTaskOrder(job.tasks().stream().filter(remaining::contains).toList());
  }

  /** Whether {@code batch} is the whole gang: nothing of the job remains after it. */
  public static boolean wholeGang(Set<TaskState> remaining, List<TaskState> batch) {
    return batch.size() == remaining.size();
  }

  private List<TaskState> surplus(JobState job, SubGroupNode node, Set<TaskState> remaining) {
    if (node instanceof PodSet p) {
      List<TaskState> active = remainingOf(job, p, remaining);
      if (active.size() > p.minMember()) {
        return List.of(active.get(active.size() - 1));
      }
      return List.of();
    }
    SubGroupSet set = (SubGroupSet) node;
    List<SubGroupProgress> members = new ArrayList<>();
    for (SubGroupNode child : set.children()) {
      members.add(progress(job, child, remaining));
    }
    members.sort(hooks::compareSubGroups);
    long satisfied = members.stream().filter(SubGroupProgress::satisfied).count();
    for (int i = members.size() - 1; i >= 0; i--) {
      SubGroupProgress m = members.get(i);
      if (satisfied > set.required() && m.satisfied()) {
        List<TaskState> whole = allRemaining(job, m.node(), remaining);
        if (!whole.isEmpty()) {
          return whole;
        }
      }
      List<TaskState> inner = surplus(job, m.node(), remaining);
      if (!inner.isEmpty()) {
        return inner;
      }
    }
    return List.of();
  }

  private SubGroupProgress progress(JobState job, SubGroupNode node, Set<TaskState> remaining) {
    if (node instanceof PodSet p) {
      long active = remainingOf(job, p, remaining).size();
      return new SubGroupProgress(p, active >= p.minMember(), active, p.minMember());
    }
    SubGroupSet s = (SubGroupSet) node;
    long satisfied =
        s.children().stream().filter(c -> progress(job, c, remaining).satisfied()).count();
    return new SubGroupProgress(s, satisfied >= s.required(), satisfied, s.required());
  }

  private List<TaskState> allRemaining(JobState job, SubGroupNode node, Set<TaskState> remaining) {
    if (node instanceof PodSet p) {
      return remainingOf(job, p, remaining);
    }
    List<TaskState> out = new ArrayList<>();
    for (SubGroupNode child : ((SubGroupSet) node).children()) {
      out.addAll(allRemaining(job, child, remaining));
    }
    return out;
  }

  private List<TaskState> remainingOf(JobState job, PodSet p, Set<TaskState> remaining) {
    return inTaskOrder(job.tasks(p).stream().filter(remaining::contains).toList());
  }

  private List<TaskState> inTaskOrder(List<TaskState> tasks) {
    List<TaskState> sorted = new ArrayList<>(tasks);
    sorted.sort(Comparator.comparing((TaskState t) -> t, hooks::compareTasks));
    return sorted;
  }
}
