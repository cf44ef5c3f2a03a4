package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

/**
 * What keeps a job from running: which rule, on which queue (empty for the nodes), in a sentence.
 */
public record HoldBack(Kind kind, String queue, String sentence) {
  public HoldBack {
    requireNonNull(kind, "kind is null");
    requireNonNull(queue, "queue is null");
    requireNonNull(sentence, "sentence is null");
  }

  /** The rule, most binding first. */
  public enum Kind {
    /** A queue on the path would go over its limit. */
    LIMIT,
    /** A non-preemptible job would take a queue's non-preemptible allocation over its quota. */
    NON_PREEMPTIBLE_QUOTA,
    /** The queue holds its fair share or more: it runs only on resources nobody else wants. */
    FAIR_SHARE,
    /** No node has room (or matches) for the job's tasks. */
    NODES,
    /** The job has fewer live pods than its minimum. */
    NOT_READY,
    /** The job names a queue that does not exist or is not a leaf. */
    QUEUE,
    /** Another of KAI's reasons (topology, preemption delay): see the job's message. */
    OTHER
  }
}
