package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.QueueShares;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.EvictionReason;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.model.QueueInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Why each eviction action evicts a pod, as {@link EvictionReason} values, and their KAI text
 * ({@link FitMessages#eviction}). What a message quotes is read before any victim of the scenario
 * is evicted.
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
   * The reclaim messages of one scenario. Each quotes the reclaimee's and the reclaimer's queues —
   * the leaf queues when they are siblings, else their parents — as they stand now, before any
   * victim is evicted; the text is formatted when asked for.
   */
  static Function<TaskState, String> reclaim(
      SessionView session, JobState reclaimer, List<TaskState> victims) {
    Map<String, QueueInfo> queues = new HashMap<>();
    for (QueueInfo q : session.snapshot().queues()) {
      queues.put(q.name(), q);
    }
    Optional<QueueShares> shares = session.state().read(QueueShares.KEY);
    Optional<QueueInfo> reclaimerLeaf = Optional.ofNullable(queues.get(reclaimer.info().queue()));
    Map<String, QueueStates> byVictimQueue = new HashMap<>();
    for (TaskState v : victims) {
      byVictimQueue.computeIfAbsent(
          v.job().info().queue(),
          q -> QueueStates.of(queues, shares, Optional.ofNullable(queues.get(q)), reclaimerLeaf));
    }
    String reclaimerName = job(reclaimer);
    return victim -> {
      QueueStates states = byVictimQueue.get(victim.job().info().queue());
      return FitMessages.eviction(
          new EvictionReason.Reclaimed(
              pod(victim), reclaimerName, states.reclaimee(), states.reclaimer()));
    };
  }

  /** The two queues a reclaim message quotes, as they stood when it was prepared. */
  private record QueueStates(
      Optional<EvictionReason.QueueState> reclaimee,
      Optional<EvictionReason.QueueState> reclaimer) {
    static QueueStates of(
        Map<String, QueueInfo> queues,
        Optional<QueueShares> shares,
        Optional<QueueInfo> reclaimeeLeaf,
        Optional<QueueInfo> reclaimerLeaf) {
      Optional<QueueInfo> reclaimee = reclaimeeLeaf;
      Optional<QueueInfo> reclaimer = reclaimerLeaf;
      if (reclaimer.isPresent()
          && reclaimee.isPresent()
          && !reclaimee.get().parent().equals(reclaimer.get().parent())) {
        reclaimer = reclaimer.map(q -> q.parent().map(queues::get).orElse(q));
        reclaimee = reclaimee.map(q -> q.parent().map(queues::get).orElse(q));
      }
      return new QueueStates(
          reclaimee.flatMap(q -> state(shares, q)), reclaimer.flatMap(q -> state(shares, q)));
    }
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
