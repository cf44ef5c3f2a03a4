package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.scheduler.model.QueueInfo;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Tells, at admission, when a pod's queue label names a queue that can hold no job: one that does
 * not exist, one with child queues (only leaf queues hold jobs), or one whose parent does not
 * exist. KAI admits such a pod and leaves it pending with {@code Queue '<q>' does not exist}; so
 * does Gantry, since the queue may be created after the pod, but the person applying the pod is
 * told at once, as an admission warning that {@code kubectl} prints.
 */
public final class QueueLabelCheck {
  private final String queueLabelKey;
  private final Supplier<ImmutableList<QueueInfo>> queues;

  /**
   * @param queueLabelKey the label naming a pod's queue (KAI's {@code queueLabelKey})
   * @param queues the cluster's queues now
   */
  public QueueLabelCheck(String queueLabelKey, Supplier<ImmutableList<QueueInfo>> queues) {
    this.queueLabelKey = requireNonNull(queueLabelKey, "queueLabelKey is null");
    this.queues = requireNonNull(queues, "queues is null");
  }

  /** With KAI's default label key, {@value QueueAssignment#DEFAULT_QUEUE_LABEL_KEY}. */
  public static QueueLabelCheck kaiDefaults(Supplier<ImmutableList<QueueInfo>> queues) {
    return new QueueLabelCheck(QueueAssignment.DEFAULT_QUEUE_LABEL_KEY, queues);
  }

  /** The warning for a pod with these labels, or empty when it names no queue or a leaf queue. */
  public Optional<String> warning(Map<String, String> podLabels) {
    String queue = podLabels.get(queueLabelKey);
    if (queue == null || queue.isEmpty()) {
      return Optional.empty();
    }
    ImmutableList<QueueInfo> all = queues.get();
    Optional<QueueInfo> named = all.stream().filter(q -> q.name().equals(queue)).findFirst();
    if (named.isEmpty()) {
      return Optional.of(
          "Queue '" + queue + "' does not exist: the pod stays pending until it is created");
    }
    if (all.stream().anyMatch(q -> q.parent().filter(queue::equals).isPresent())) {
      return Optional.of(
          "Queue '"
              + queue
              + "' has child queues and only leaf queues hold jobs: the pod stays pending");
    }
    Optional<String> parent = named.get().parent();
    if (parent.isPresent() && all.stream().noneMatch(q -> q.name().equals(parent.get()))) {
      return Optional.of(
          "Queue '"
              + queue
              + "' has parent '"
              + parent.get()
              + "', which does not exist: the pod stays pending");
    }
    return Optional.empty();
  }
}
