package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.JobLifecycle;
import java.util.Optional;

/**
 * A job (PodGroup) after the cycle: the fit errors it collected as KAI's job message (the
 * PodGroup's scheduling condition and Unschedulable event), its tasks, and its lifecycle as the
 * cycle leaves it — the timestamps KAI writes back as PodGroup annotations (last start, last
 * eviction, stale since).
 */
public record JobOutcome(
    String jobId,
    Optional<String> fitMessage,
    ImmutableList<TaskOutcome> tasks,
    JobLifecycle lifecycle) {
  public JobOutcome {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(fitMessage, "fitMessage is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(lifecycle, "lifecycle is null");
  }

  /** A job whose lifecycle carries nothing ({@link JobLifecycle#NONE}). */
  public JobOutcome(String jobId, Optional<String> fitMessage, ImmutableList<TaskOutcome> tasks) {
    this(jobId, fitMessage, tasks, JobLifecycle.NONE);
  }
}
