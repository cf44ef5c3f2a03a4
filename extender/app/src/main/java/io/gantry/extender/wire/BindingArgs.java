package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

/** The request of {@code bind} ({@code ExtenderBindingArgs}): bind this pod to {@code node}. */
public record BindingArgs(PodRef pod, String node) {
  public BindingArgs {
    requireNonNull(pod, "pod is null");
    requireNonNull(node, "node is null");
  }
}
