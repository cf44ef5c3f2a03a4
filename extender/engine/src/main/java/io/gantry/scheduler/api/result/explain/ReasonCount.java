package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

/** One of KAI's node fit sentences and how many nodes gave it for the job's task. */
public record ReasonCount(String reason, long nodes) {
  public ReasonCount {
    requireNonNull(reason, "reason is null");
  }
}
