package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.fit.PreemptionDelayNotElapsed;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The jobs an eviction action may act for (kai-reference §4.5, §10.4): pending, ready, in an
 * existing leaf queue, and past their preemption delay. A job inside its delay records KAI's {@code
 * PreemptionDelayNotElapsed} fit error (once per cycle) and triggers no evictions; it still
 * allocates normally.
 */
final class PreemptorCandidates {
  private PreemptorCandidates() {}

  static List<JobState> of(Session session) {
    Set<String> leaves =
        session.snapshot().queues().stream().map(QueueInfo::name).collect(Collectors.toSet());
    Set<String> parents = new TreeSet<>();
    session.snapshot().queues().forEach(q -> q.parent().ifPresent(parents::add));
    List<JobState> out = new ArrayList<>();
    for (JobState job : session.jobs()) {
      String queue = job.info().queue();
      if (!job.hasPendingTasks()
          || !leaves.contains(queue)
          || parents.contains(queue)
          || !ready(job)) {
        continue;
      }
      Optional<Instant> delayedUntil = delayedUntil(job);
      if (delayedUntil.isPresent() && session.now().isBefore(delayedUntil.get())) {
        recordDelay(session, job, delayedUntil.get());
        continue;
      }
      out.add(job);
    }
    return out;
  }

  /** A PodSet is ready when its alive, non-gated pods reach minMember (kai-reference §4.4). */
  static boolean ready(JobState job) {
    for (PodSet p : job.podSets()) {
      long alive = job.count(p, TaskStatus::isAlive);
      long gated = job.count(p, s -> s == TaskStatus.GATED);
      if (alive - gated < p.minMember()) {
        return false;
      }
    }
    return true;
  }

  /**
   * The end of the job's preemption delay: its delay after the later of its creation and its last
   * eviction; empty without a delay.
   */
  static Optional<Instant> delayedUntil(JobState job) {
    Optional<Duration> delay = job.info().lifecycle().preemptionDelay();
    if (delay.isEmpty() || delay.get().isZero()) {
      return Optional.empty();
    }
    Instant from = job.info().createdAt();
    Optional<Instant> evicted = job.lifecycle().lastEvictedAt();
    if (evicted.isPresent() && evicted.get().isAfter(from)) {
      from = evicted.get();
    }
    return Optional.of(from.plus(delay.get()));
  }

  private static void recordDelay(Session session, JobState job, Instant until) {
    PreemptionDelayNotElapsed error =
        new PreemptionDelayNotElapsed(
            job.info().lifecycle().preemptionDelay().orElseThrow(), until);
    if (!job.fitErrors().contains(error)) {
      session.recordJobFitError(job, error);
    }
  }
}
