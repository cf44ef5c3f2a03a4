package io.gantry.scheduler.framework;

import io.gantry.scheduler.api.result.CycleEvent;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.framework.fit.JobFitReason;
import io.gantry.scheduler.framework.fit.PodSchedulingFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a cycle records besides placements, in the order it happens: the decisions committed
 * statements made, the events actions raise, why jobs and tasks did not fit, and the job lifecycle
 * timestamps (KAI's {@code kai.scheduler/...} annotations) at the cycle's time. Appends only; read
 * back as copies. Single-threaded.
 */
final class CycleEventLog {
  private final SessionState state;
  private final Instant now;
  private final List<Decision> decisions = new ArrayList<>();
  private final List<CycleEvent> events = new ArrayList<>();

  CycleEventLog(SessionState state, Instant now) {
    this.state = state;
    this.now = now;
  }

  List<Decision> decisions() {
    return List.copyOf(decisions);
  }

  List<CycleEvent> events() {
    return List.copyOf(events);
  }

  void recordEvent(String object, String reason, String message) {
    events.add(new CycleEvent(object, reason, message));
  }

  void recordJobFitError(JobState job, JobFitReason error) {
    job.addFitError(error);
  }

  void recordTaskFitError(TaskState task, PodSchedulingFailure error) {
    task.setFitError(error);
  }

  /** A statement committed these decisions; an eviction stamps its job's last eviction time. */
  void recordCommitted(List<Decision> committed) {
    decisions.addAll(committed);
    for (Decision d : committed) {
      if (d.kind() == Decision.Kind.EVICT) {
        JobState job = state.task(d.taskId()).job();
        job.setLifecycle(job.lifecycle().withLastEvictedAt(Optional.of(now)));
      }
    }
  }

  /** The job started running this cycle ({@code kai.scheduler/last-start-timestamp}). */
  void markStarted(JobState job) {
    job.setLifecycle(job.lifecycle().withLastStartedAt(Optional.of(now)));
  }

  /** Sets or clears the job's {@code kai.scheduler/stale-podgroup-timestamp}. */
  void markStale(JobState job, Optional<Instant> since) {
    job.setLifecycle(job.lifecycle().withStaleSince(since));
  }
}
