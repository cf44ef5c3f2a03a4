package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

/** An entry of nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution. */
public record PreferredSchedulingTermSpec(int weight, NodeSelectorTermSpec preference, int line) {
  public PreferredSchedulingTermSpec {
    requireNonNull(preference, "preference is null");
  }
}
