package io.gantry.kubemodel.kai.grouping;

import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.Map;
import java.util.Optional;

/**
 * KAI's segment annotations on a pod template (kai-reference §3.1, §3.4): {@value
 * DefaultGrouper#SEGMENT_SIZE}, and the topology each segment asks for.
 */
final class Segments {
  private Segments() {}

  /**
   * A segment size: a whole number greater than 1 and at most {@code replicas}.
   *
   * @throws KaiObjectException naming {@code field}
   */
  static int size(String value, String field, int replicas) {
    int size;
    try {
      size = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new KaiObjectException(
          field, "invalid segment size " + DefaultGrouper.quote(value) + ": not a whole number");
    }
    if (size <= 1) {
      throw new KaiObjectException(
          field, "segment size " + size + " is not valid. It must be greater than 1");
    }
    if (size > replicas) {
      throw new KaiObjectException(
          field, "segment size " + size + " is greater than the replicas, " + replicas);
    }
    return size;
  }

  /**
   * The constraint of each segment: the topology from the pod, the worker template or the top
   * owner; the levels from the pod's or the worker template's segment annotations; none without a
   * topology or without a level.
   */
  static Optional<TopologyConstraint> topologyConstraint(
      Map<String, String> pod, Map<String, String> workerTemplate, Map<String, String> owner) {
    String topology =
        DefaultGrouper.nonEmpty(pod.get(DefaultGrouper.TOPOLOGY))
            .or(() -> DefaultGrouper.nonEmpty(workerTemplate.get(DefaultGrouper.TOPOLOGY)))
            .orElse(owner.getOrDefault(DefaultGrouper.TOPOLOGY, ""));
    if (topology.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> required =
        level(pod, workerTemplate, DefaultGrouper.SEGMENT_TOPOLOGY_REQUIRED);
    Optional<String> preferred =
        level(pod, workerTemplate, DefaultGrouper.SEGMENT_TOPOLOGY_PREFERRED);
    if (required.isEmpty() && preferred.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new TopologyConstraint(topology, required, preferred));
  }

  private static Optional<String> level(
      Map<String, String> pod, Map<String, String> workerTemplate, String key) {
    return DefaultGrouper.nonEmpty(pod.get(key))
        .or(() -> DefaultGrouper.nonEmpty(workerTemplate.get(key)));
  }

  /** The pod's index label as a whole number of at least 0. */
  static int podIndex(PodMeta pod, String label) {
    String field = "pod.metadata.labels." + label;
    String value = pod.labels().get(label);
    if (value == null) {
      throw new KaiObjectException(field, "replica index label not found on pod " + pod.name());
    }
    try {
      int index = Integer.parseInt(value);
      if (index < 0) {
        throw new KaiObjectException(
            field, "replica index " + value + " is not valid. It must not be negative");
      }
      return index;
    } catch (NumberFormatException e) {
      throw new KaiObjectException(field, "invalid replica index " + DefaultGrouper.quote(value));
    }
  }
}
