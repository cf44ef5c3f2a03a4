package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

/** Evict (delete) the task's pod; {@code message} says why, in KAI's wording. */
public record EvictDecision(String taskId, String nodeName, String message) implements Decision {
  public EvictDecision {
    requireNonNull(taskId, "taskId is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(message, "message is null");
  }

  @Override
  public Kind kind() {
    return Kind.EVICT;
  }
}
