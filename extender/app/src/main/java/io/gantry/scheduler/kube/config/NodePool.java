package io.gantry.scheduler.kube.config;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * The node pool one scheduler owns (KAI's {@code nodePoolLabelKey} and SchedulingShard {@code
 * partitionLabelValue}): with no key, every node and PodGroup; with a key and a value, those
 * labelled {@code key=value}; with a key and no value (the default shard), those without the label.
 */
public record NodePool(Optional<String> labelKey, Optional<String> labelValue) {
  public static final NodePool ALL = new NodePool(Optional.empty(), Optional.empty());
  public static final String DEFAULT_NAME = "default";

  public NodePool {
    requireNonNull(labelKey, "labelKey is null");
    requireNonNull(labelValue, "labelValue is null");
    if (labelValue.isPresent() && labelKey.isEmpty()) {
      throw new IllegalArgumentException("a node pool value needs a node pool label key");
    }
  }

  public boolean contains(Map<String, String> labels) {
    if (labelKey.isEmpty()) {
      return true;
    }
    String value = labels == null ? null : labels.get(labelKey.get());
    return labelValue.map(v -> v.equals(value)).orElse(value == null);
  }

  /** The pool's name in messages and conditions: its label value, else {@value DEFAULT_NAME}. */
  public String name() {
    return labelValue.orElse(DEFAULT_NAME);
  }
}
