package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

/** An event the session emits (KAI's reasons: Scheduled, Pipelined, Unschedulable, NotReady, …). */
public record SessionEvent(String object, String reason, String message) {
  public SessionEvent {
    requireNonNull(object, "object is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(message, "message is null");
  }
}
