package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.QueueShares;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.EvictionReason;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.model.QueueInfo;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Why each eviction action evicts a pod, as {@link EvictionReason} values, and their KAI text
 * ({@link FitMessages#eviction}). Read before any victim of the scenario is evicted.
 */
final class EvictionReasons {
  private EvictionReasons() {}

  static String preempt(TaskState victim, JobState preemptor) {
    return FitMessages.eviction(new EvictionReason.Preempted(pod(victim), job(preemptor)));
  }

  static String consolidate(TaskState victim) {
    return FitMessages.eviction(new EvictionReason.Consolidated(pod(victim)));
  }

  /**
   * The reclaim message quotes the reclaimee's and the reclaimer's queues: the leaf queues when
   * they are siblings, else their parents.
   */
  static String reclaim(SessionView session, TaskState victim, JobState reclaimer) {
    Map<String, QueueInfo> queues =
        session.snapshot().queues().stream()
            .collect(Collectors.toMap(QueueInfo::name, Function.identity()));
    Optional<QueueInfo> reclaimerQueue = Optional.ofNullable(queues.get(reclaimer.info().queue()));
    Optional<QueueInfo> reclaimeeQueue =
        Optional.ofNullable(queues.get(victim.job().info().queue()));
    if (reclaimerQueue.isPresent()
        && reclaimeeQueue.isPresent()
        && !reclaimeeQueue.get().parent().equals(reclaimerQueue.get().parent())) {
      reclaimerQueue = reclaimerQueue.map(q -> q.parent().map(queues::get).orElse(q));
      reclaimeeQueue = reclaimeeQueue.map(q -> q.parent().map(queues::get).orElse(q));
    }
    Optional<QueueShares> shares = session.state().read(QueueShares.KEY);
    return FitMessages.eviction(
        new EvictionReason.Reclaimed(
            pod(victim),
            job(reclaimer),
            reclaimeeQueue.flatMap(q -> state(shares, q)),
            reclaimerQueue.flatMap(q -> state(shares, q))));
  }

  static String gangBelowMinimum(TaskState task, long minMember, Optional<String> subGroup) {
    return FitMessages.eviction(
        new EvictionReason.GangBelowMinimum(pod(task), minMember, subGroup));
  }

  private static Optional<EvictionReason.QueueState> state(
      Optional<QueueShares> shares, QueueInfo queue) {
    return shares
        .flatMap(s -> s.of(queue.name()))
        .map(
            a ->
                new EvictionReason.QueueState(
                    queue.name(), a.allocated(), a.deserved(), a.fairShare(), a.priority()));
  }

  static String pod(TaskState task) {
    return task.info().namespace() + "/" + task.info().podName();
  }

  static String job(JobState job) {
    return job.info().namespace() + "/" + job.info().name();
  }
}
