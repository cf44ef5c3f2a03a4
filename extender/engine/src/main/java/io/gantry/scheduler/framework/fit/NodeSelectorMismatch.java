package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/** The node lacks the pod's nodeSelector label {@code labelKey}, or has another value for it. */
public record NodeSelectorMismatch(String labelKey) implements NodeFitReason {
  public NodeSelectorMismatch {
    requireNonNull(labelKey, "labelKey is null");
  }

  @Override
  public Kind kind() {
    return Kind.NODE_SELECTOR_MISMATCH;
  }
}
