package io.gantry.scheduler.actions;

import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictionCause;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.framework.fit.StaleJob;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * KAI's stale gang eviction (kai-reference §4.10): a job with no succeeded pod, some active pod,
 * and a PodSet below its minimum is stale. The first cycle that sees it records the stale
 * timestamp; once the job's staleness grace period (else the scheduler's default, 60s) has passed
 * since then, every pod it still has placed is evicted. A negative grace period never evicts. A job
 * that is no longer stale has its timestamp cleared. Each stale job gets a {@code StaleJob} event
 * per cycle.
 */
public final class StaleGangEvictionAction implements Action {
  private final ActionContext context;

  public StaleGangEvictionAction(ActionContext context) {
    this.context = context;
  }

  @Override
  public ActionType type() {
    return ActionType.STALE_GANG_EVICTION;
  }

  @Override
  public void execute(Session session) {
    for (JobState job : session.jobs()) {
      Optional<PodSet> shortOf = shortPodSet(job);
      if (shortOf.isEmpty()) {
        if (job.lifecycle().staleSince().isPresent()) {
          session.markStale(job, Optional.empty());
        }
        continue;
      }
      handleStale(session, job, shortOf.get());
    }
  }

  private void handleStale(Session session, JobState job, PodSet podSet) {
    Instant since = job.lifecycle().staleSince().orElse(session.now());
    if (job.lifecycle().staleSince().isEmpty()) {
      session.markStale(job, Optional.of(since));
    }
    session.recordEvent(job.id(), "StaleJob", staleEvent(job, podSet));
    Duration grace =
        job.info()
            .lifecycle()
            .stalenessGracePeriod()
            .orElse(context.evictions().defaultStalenessGracePeriod());
    if (grace.isNegative() || Duration.between(since, session.now()).compareTo(grace) < 0) {
      return;
    }
    List<TaskState> placed = new ArrayList<>();
    for (TaskState t : job.tasks()) {
      if (VictimAccumulator.isVictimTask(t)) {
        placed.add(t);
      }
    }
    if (placed.isEmpty()) {
      return;
    }
    EvictionCause cause =
        new EvictionCause(
            ActionType.STALE_GANG_EVICTION.actionName(), Optional.empty(), placed.size());
    try (Statement statement = session.statement()) {
      for (TaskState t : placed) {
        statement.evict(t, evictionMessage(job, podSet, t), cause);
      }
      List<Decision> decisions = statement.commit();
      CommitEvents.record(session, decisions);
    }
  }

  /**
   * The first leaf PodSet below its minimum, when the job is stale: no succeeded pod, some active
   * pod ({@code minSubGroup} elasticity is not consulted, as in KAI's code).
   */
  static Optional<PodSet> shortPodSet(JobState job) {
    if (job.count(s -> s == TaskStatus.SUCCEEDED) > 0 || job.count(TaskStatus::isActiveUsed) == 0) {
      return Optional.empty();
    }
    for (PodSet p : job.podSets()) {
      if (job.count(p, TaskStatus::isActiveUsed) < p.minMember()) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private static String evictionMessage(JobState job, PodSet podSet, TaskState task) {
    return EvictionReasons.gangBelowMinimum(
        task, podSet.minMember(), flat(job) ? Optional.empty() : Optional.of(podSet.name()));
  }

  private static String staleEvent(JobState job, PodSet podSet) {
    long active = job.count(TaskStatus::isActiveUsed);
    if (flat(job)) {
      return FitMessages.staleJob(new StaleJob(active, podSet.minMember(), Optional.empty()));
    }
    long minMember = job.podSets().stream().mapToLong(PodSet::minMember).sum();
    return FitMessages.staleJob(
        new StaleJob(
            active,
            minMember,
            Optional.of(
                new StaleJob.ShortSubGroup(
                    podSet.name(),
                    podSet.minMember(),
                    job.count(podSet, TaskStatus::isActiveUsed)))));
  }

  /** A PodGroup without SubGroups: one {@code default} PodSet under the root. */
  private static boolean flat(JobState job) {
    List<PodSet> podSets = job.podSets();
    return podSets.size() == 1 && podSets.get(0).name().equals(JobInfo.DEFAULT_POD_SET);
  }
}
