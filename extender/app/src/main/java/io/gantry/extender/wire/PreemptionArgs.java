package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;

/**
 * The request of {@code preempt} ({@code ExtenderPreemptionArgs}): the preemptor and, per candidate
 * node, the victims kube-scheduler chose. Both wire forms ({@code NodeNameToMetaVictims} with UIDs,
 * {@code NodeNameToVictims} with pod objects) read into UIDs.
 */
public record PreemptionArgs(PodRef pod, ImmutableSortedMap<String, NodeVictims> victims) {
  public PreemptionArgs {
    requireNonNull(pod, "pod is null");
    requireNonNull(victims, "victims is null");
  }
}
