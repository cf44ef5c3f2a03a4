package io.gantry.kubemodel.kai;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.QueueInfo;
import java.util.Map;
import java.util.Optional;

/**
 * Which queue a workload belongs to (kai-reference §3.1): the queue label ({@value
 * #DEFAULT_QUEUE_LABEL_KEY} unless configured otherwise) on the top owner, else on the pod; else
 * the {@value #PROJECT_LABEL} label (owner, then pod) names queue {@code <project>}, or {@code
 * <project>-<pool>} for a pod in node pool {@code <pool>}; else {@value #DEFAULT_QUEUE}.
 */
public final class QueueAssignment {
  public static final String DEFAULT_QUEUE_LABEL_KEY = QueueInfo.DEFAULT_QUEUE_LABEL_KEY;
  public static final String PROJECT_LABEL = "project";
  public static final String DEFAULT_QUEUE = "default-queue";

  private final String queueLabelKey;
  private final Optional<String> nodePoolLabelKey;

  /**
   * @param queueLabelKey KAI's {@code queueLabelKey}
   * @param nodePoolLabelKey KAI's {@code nodePoolLabelKey}, when node pools are in use
   */
  public QueueAssignment(String queueLabelKey, Optional<String> nodePoolLabelKey) {
    this.queueLabelKey = requireNonNull(queueLabelKey, "queueLabelKey is null");
    this.nodePoolLabelKey = requireNonNull(nodePoolLabelKey, "nodePoolLabelKey is null");
  }

  public static QueueAssignment kaiDefaults() {
    return new QueueAssignment(DEFAULT_QUEUE_LABEL_KEY, Optional.empty());
  }

  public String queueOf(Map<String, String> ownerLabels, Map<String, String> podLabels) {
    Optional<String> labelled = first(queueLabelKey, ownerLabels, podLabels);
    if (labelled.isPresent()) {
      return labelled.get();
    }
    Optional<String> project = first(PROJECT_LABEL, ownerLabels, podLabels);
    if (project.isEmpty()) {
      return DEFAULT_QUEUE;
    }
    Optional<String> pool = nodePoolLabelKey.flatMap(key -> nonEmpty(podLabels.get(key)));
    return pool.map(p -> project.get() + "-" + p).orElse(project.get());
  }

  private static Optional<String> first(
      String key, Map<String, String> ownerLabels, Map<String, String> podLabels) {
    return nonEmpty(ownerLabels.get(key)).or(() -> nonEmpty(podLabels.get(key)));
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }
}
