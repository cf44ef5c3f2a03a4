package io.gantry.kubemodel.selector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;

/**
 * A Kubernetes affinity stanza.
 *
 * @param fieldLines each key present in the stanza ({@code nodeAffinity}, {@code podAffinity},
 *     {@code podAntiAffinity}) and its line
 */
public record AffinitySpec(
    Optional<NodeAffinitySpec> nodeAffinity,
    Optional<PodAffinitySpec> podAffinity,
    Optional<PodAffinitySpec> podAntiAffinity,
    int line,
    ImmutableSortedMap<String, Integer> fieldLines) {
  public AffinitySpec {
    requireNonNull(nodeAffinity, "nodeAffinity is null");
    requireNonNull(podAffinity, "podAffinity is null");
    requireNonNull(podAntiAffinity, "podAntiAffinity is null");
    requireNonNull(fieldLines, "fieldLines is null");
  }
}
