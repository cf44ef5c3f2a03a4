package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

/** Why a job was not placed: a KAI reason ({@code OverLimit}, …) and its message. */
public record JobFitError(String reason, String message) {
  public static final String POD_SCHEDULING_ERRORS = "PodSchedulingErrors";
  public static final String OVER_LIMIT = "OverLimit";
  public static final String NON_PREEMPTIBLE_OVER_QUOTA = "NonPreemptibleOverQuota";
  public static final String QUEUE_DOES_NOT_EXIST = "QueueDoesNotExist";

  public JobFitError {
    requireNonNull(reason, "reason is null");
    requireNonNull(message, "message is null");
  }
}
