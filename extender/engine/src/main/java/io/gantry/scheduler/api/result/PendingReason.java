package io.gantry.scheduler.api.result;

import io.gantry.scheduler.model.TaskStatus;
import java.util.Locale;
import java.util.Optional;

/**
 * Why a task waits, in a few words that fit a metric label or a chart legend: a waiting task's
 * message (KAI's sentence, {@link TaskOutcome#fitMessage}) sorted into one of a handful of classes,
 * first match wins. The full sentence stays in the task's condition and the reports.
 */
public enum PendingReason {
  /** The pod has scheduling gates. */
  GATED("gated"),
  /** The queue is at its limit, or a non-preemptible job would go over quota. */
  QUEUE_LIMIT("queue-limit"),
  /** The queue does not exist or is not a leaf. */
  NO_QUEUE("no-queue"),
  /** The gang has fewer pods than its minimum. */
  NOT_READY("not-ready"),
  /** Some members fit, not enough for the gang's minimum. */
  GANG("gang"),
  /** A topology constraint cannot be met. */
  TOPOLOGY("topology"),
  /** No node has the resources (or passes the predicates). */
  RESOURCES("resources"),
  /** A waiting task without a message: no action reached it this cycle. */
  NOT_ATTEMPTED("not-attempted"),
  /** Any other message. */
  OTHER("other");

  private final String label;

  PendingReason(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** The class of a waiting task's status and message. */
  public static PendingReason of(TaskStatus status, Optional<String> message) {
    if (status == TaskStatus.GATED) {
      return GATED;
    }
    if (message.isEmpty()) {
      return NOT_ATTEMPTED;
    }
    String m = message.get().toLowerCase(Locale.ROOT);
    if (m.contains("allowable limit") || m.contains("over quota")) {
      return QUEUE_LIMIT;
    }
    if (m.contains("queue '") && m.contains("does not exist")) {
      return NO_QUEUE;
    }
    if (m.contains("job is not ready")) {
      return NOT_READY;
    }
    if (m.contains("required for gang scheduling")) {
      return GANG;
    }
    if (m.contains("topology")) {
      return TOPOLOGY;
    }
    if (m.contains("resources were not found") || m.contains("node(s)") || m.contains("nodes")) {
      return RESOURCES;
    }
    return OTHER;
  }
}
