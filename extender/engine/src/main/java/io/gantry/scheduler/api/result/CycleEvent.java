package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

/** An event the session emits (KAI's reasons: Scheduled, Pipelined, Unschedulable, NotReady, …). */
public record CycleEvent(String object, String reason, String message) {
  public CycleEvent {
    requireNonNull(object, "object is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(message, "message is null");
  }
}
