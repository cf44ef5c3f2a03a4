package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.QueueHierarchy;

/**
 * The job names a queue that is not a leaf queue of the snapshot. KAI says {@code Queue '<q>' does
 * not exist} whatever the cause; {@code problem} says which it is (the queue does not exist, its
 * parent does not, it is in a cycle, or it has children), so that the pod's condition tells the
 * user what to fix.
 */
public record QueueDoesNotExist(String queue, QueueHierarchy.Problem problem)
    implements JobFitReason {
  public QueueDoesNotExist {
    requireNonNull(queue, "queue is null");
    requireNonNull(problem, "problem is null");
  }

  /** A queue no queue of the snapshot is named. */
  public QueueDoesNotExist(String queue) {
    this(queue, new QueueHierarchy.Missing(queue));
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
