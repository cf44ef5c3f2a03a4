package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.QueueInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Running jobs an eviction action may take from (kai-reference §4.7–4.9): preemptible, not the
 * preemptor, in an existing leaf queue, holding at least one task placed before this cycle, and
 * accepted by {@code rule}. In snapshot order.
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
          || !rule.test(job)) {
        continue;
      }
      out.add(job);
    }
    return out;
  }
}
