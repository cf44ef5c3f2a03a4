package io.gantry.scheduler.actions;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.QuotaGpuTally;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToEvict;
import io.gantry.scheduler.framework.VictimBatch;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pops victim batches in the order KAI's victim queue gives them (kai-reference §4.11): the job
 * scheduled last comes first, and each pop takes its next batch — an elastic surplus pod or child
 * SubGroup, else the whole gang — putting the job back while it has tasks left. Victim tasks are
 * the placed tasks the snapshot brought (binding, bound, running); this cycle's own placements are
 * never taken back. A batch that holds recorded victims of the preemptor is skipped, as KAI skips
 * it: the job goes back with its other tasks, and its queue counts the recorded ones as taken.
 */
final class VictimAccumulator {
  private final TasksToEvict tasksToEvict;
  private final Set<TaskState> recorded;
  private final Map<JobState, Set<TaskState>> remaining = new LinkedHashMap<>();

  /** Jobs put back after a batch: the queue orders them by the tasks not taken yet. */
  private final Set<JobState> pushedBack = new HashSet<>();

  private final JobsOrderByQueues queue;

  /**
   * What the batches popped so far free: a DRA GPU claim shared by victims of several batches is
   * freed by the batch that takes its last holder.
   */
  private final QuotaGpuTally freed;

  /** The same for the recorded victims the queue passes over. */
  private final QuotaGpuTally passedOver;

  VictimAccumulator(Session session, List<JobState> victimJobs, Set<TaskState> recorded) {
    this.tasksToEvict = new TasksToEvict(session.hooks());
    this.recorded = recorded;
    List<JobState> withTasks = new ArrayList<>();
    for (JobState job : victimJobs) {
      Set<TaskState> tasks = new LinkedHashSet<>();
      for (TaskState t : job.tasks()) {
        if (isVictimTask(t)) {
          tasks.add(t);
        }
      }
      if (!tasks.isEmpty()) {
        remaining.put(job, tasks);
        withTasks.add(job);
      }
    }
    this.queue =
        JobsOrderByQueues.victims(
            session.hooks(),
            session.snapshot().queues(),
            withTasks,
            job -> pushedBack.contains(job) ? remaining.get(job)::contains : t -> true);
    this.freed = session.quotaGpuTally();
    this.passedOver = session.quotaGpuTally();
  }

  /** A task that holds a place since before this cycle and may be taken as a victim. */
  static boolean isVictimTask(TaskState task) {
    TaskStatus s = task.status();
    return task.nodeName().isPresent()
        && (s == TaskStatus.BINDING || s == TaskStatus.BOUND || s == TaskStatus.RUNNING);
  }

  /** The next batch, or empty when no victim is left. */
  Optional<VictimBatch> next() {
    for (JobState job = queue.pop(); job != null; job = queue.pop()) {
      Set<TaskState> left = remaining.get(job);
      List<TaskState> batch = tasksToEvict.next(job, left);
      if (batch.stream().anyMatch(recorded::contains)) {
        List<TaskState> passed = left.stream().filter(recorded::contains).toList();
        left.removeAll(passed);
        finish(job, left, TaskState.queueAmounts(passed, passedOver.addAll(passed)));
        continue;
      }
      batch.forEach(left::remove);
      finish(job, left, TaskState.queueAmounts(batch, freed.addAll(batch)));
      return Optional.of(new VictimBatch(job, ImmutableList.copyOf(batch)));
    }
    return Optional.empty();
  }

  private void finish(JobState job, Set<TaskState> left, Resources taken) {
    if (!left.isEmpty()) {
      pushedBack.add(job);
    }
    queue.finishVictim(job, taken, !left.isEmpty());
  }
}
