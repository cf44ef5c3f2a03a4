package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Running jobs an eviction action may take from (kai-reference §4.7–4.9): preemptible, not the
 * preemptor, in an existing leaf queue, holding at least one task placed before this cycle, none of
 * its tasks moved by an earlier action of this cycle, and accepted by {@code rule}. In snapshot
 * order.
 */
final class VictimJobs {
  private VictimJobs() {}

  static List<JobState> of(Session session, JobState preemptor, Predicate<JobState> rule) {
    Set<String> queues = new TreeSet<>();
    Set<String> parents = new TreeSet<>();
    for (QueueInfo q : session.snapshot().queues()) {
      queues.add(q.name());
      q.parent().ifPresent(parents::add);
    }
    List<JobState> out = new ArrayList<>();
    for (JobState job : session.jobs()) {
      String queue = job.info().queue();
      if (job == preemptor
          || !job.info().preemptible()
          || !queues.contains(queue)
          || parents.contains(queue)
          || job.tasks().stream().noneMatch(VictimAccumulator::isVictimTask)
          || movedThisCycle(job)
          || !rule.test(job)) {
        continue;
      }
      out.add(job);
    }
    return out;
  }

  /**
   * Whether an earlier action of this cycle moved one of the job's tasks (evicted it and pipelined
   * it elsewhere). Its other tasks are not offered as victims: evicting them would leave the moved
   * task pipelined alone, a gang below its minimum.
   */
  private static boolean movedThisCycle(JobState job) {
    return job.tasks().stream()
        .anyMatch(
            t -> t.status() == TaskStatus.PIPELINED && t.info().status() != TaskStatus.PIPELINED);
  }
}
