package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.scheduler.model.QueueHierarchy;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Tells, at admission, when a pod's queue label names a queue that can hold no job: one that does
 * not exist, one whose parent does not exist or that is in a cycle, or one with child queues (only
 * leaf queues hold jobs), in the words the scheduler gives the pod ({@link QueueHierarchy}). KAI
 * admits such a pod and leaves it pending; so does Gantry, since the queue may be created or fixed
 * after the pod, but the person applying the pod is told at once, as an admission warning that
 * {@code kubectl} prints.
 */
public final class QueueLabelCheck {
  private final String queueLabelKey;
  private final Supplier<QueueHierarchy> queues;

  /**
   * @param queueLabelKey the label naming a pod's queue (KAI's {@code queueLabelKey})
   * @param queues the cluster's queues now, those the engine leaves out included
   */
  public QueueLabelCheck(String queueLabelKey, Supplier<QueueHierarchy> queues) {
    this.queueLabelKey = requireNonNull(queueLabelKey, "queueLabelKey is null");
    this.queues = requireNonNull(queues, "queues is null");
  }

  /** With KAI's default label key, {@value QueueAssignment#DEFAULT_QUEUE_LABEL_KEY}. */
  public static QueueLabelCheck kaiDefaults(Supplier<QueueHierarchy> queues) {
    return new QueueLabelCheck(QueueAssignment.DEFAULT_QUEUE_LABEL_KEY, queues);
  }

  /** The warning for a pod with these labels, or empty when it names no queue or a leaf queue. */
  public Optional<String> warning(Map<String, String> podLabels) {
    String queue = podLabels.get(queueLabelKey);
    if (queue == null || queue.isEmpty()) {
      return Optional.empty();
    }
    return queues
        .get()
        .problem(queue)
        .map(
            p ->
                p.sentence()
                    + (p instanceof QueueHierarchy.Missing
                        ? ": the pod stays pending until it is created"
                        : ": the pod stays pending"));
  }
}
