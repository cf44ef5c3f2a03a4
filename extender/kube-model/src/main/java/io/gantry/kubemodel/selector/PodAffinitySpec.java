package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * A podAffinity or podAntiAffinity stanza.
 *
 * @param required requiredDuringSchedulingIgnoredDuringExecution, all of which must hold
 * @param preferred preferredDuringSchedulingIgnoredDuringExecution
 */
public record PodAffinitySpec(
    List<PodAffinityTermSpec> required, List<WeightedPodAffinityTermSpec> preferred, int line) {
  public PodAffinitySpec {
    required = ImmutableList.copyOf(requireNonNull(required, "required is null"));
    preferred = ImmutableList.copyOf(requireNonNull(preferred, "preferred is null"));
  }
}
