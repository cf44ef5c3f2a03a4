package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/** The job names a queue that is not a leaf queue of the snapshot (missing, or a parent queue). */
public record QueueDoesNotExist(String queue) implements JobFitReason {
  public QueueDoesNotExist {
    requireNonNull(queue, "queue is null");
  }

  @Override
  public Kind kind() {
    return Kind.QUEUE_DOES_NOT_EXIST;
  }

  @Override
  public Code code() {
    return Code.QUEUE_DOES_NOT_EXIST;
  }
}
