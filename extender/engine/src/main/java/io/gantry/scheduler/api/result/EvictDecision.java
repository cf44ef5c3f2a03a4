package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

/**
 * Evict (delete) the task's pod on its node; {@code message} says why, in KAI's wording, and {@code
 * cause} which action evicted it for which workload.
 */
public record EvictDecision(String taskId, String nodeName, String message, EvictionCause cause)
    implements Decision {
  public EvictDecision {
    requireNonNull(taskId, "taskId is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(message, "message is null");
    requireNonNull(cause, "cause is null");
  }

  @Override
  public Kind kind() {
    return Kind.EVICT;
  }
}
