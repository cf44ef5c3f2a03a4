package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * A job (PodGroup) after the cycle: the fit errors it collected as KAI's job message (the
 * PodGroup's scheduling condition and Unschedulable event), and its tasks.
 */
public record JobOutcome(
    String jobId, Optional<String> fitMessage, ImmutableList<TaskOutcome> tasks) {
  public JobOutcome {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(fitMessage, "fitMessage is null");
    requireNonNull(tasks, "tasks is null");
  }
}
