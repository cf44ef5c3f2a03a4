package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.TaskStatus;
import java.util.Optional;

/**
 * A task after the cycle: its status, and for a task still waiting (Pending or Gated) why, in KAI's
 * words: its own fit error, else its job's.
 */
public record TaskOutcome(String taskId, TaskStatus status, Optional<String> fitMessage) {
  public TaskOutcome {
    requireNonNull(taskId, "taskId is null");
    requireNonNull(status, "status is null");
    requireNonNull(fitMessage, "fitMessage is null");
  }
}
