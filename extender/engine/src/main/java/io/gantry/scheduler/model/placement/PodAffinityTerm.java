package io.gantry.scheduler.model.placement;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Map;

/**
 * A required pod affinity or anti-affinity term.
 *
 * <p>Kubernetes' {@code namespaceSelector} is not modelled: a term selects pods only in {@code
 * namespaces}, or, when that list is empty, in the namespace of the pod that declares the term.
 *
 * @param labelSelector selects the pods the term is about
 * @param namespaces namespaces to look in; empty means the declaring pod's own namespace
 * @param topologyKey node label whose value names the topology domain; required, as in Kubernetes
 */
public record PodAffinityTerm(
    LabelSelector labelSelector, List<String> namespaces, String topologyKey) {
  public PodAffinityTerm {
    requireNonNull(labelSelector, "labelSelector is null");
    namespaces = ImmutableList.copyOf(requireNonNull(namespaces, "namespaces is null"));
    requireNonNull(topologyKey, "topologyKey is null");
    checkArgument(!topologyKey.isEmpty(), "podAffinityTerm topologyKey is empty");
  }

  /** A term over the declaring pod's own namespace. */
  public static PodAffinityTerm inOwnNamespace(LabelSelector labelSelector, String topologyKey) {
    return new PodAffinityTerm(labelSelector, ImmutableList.of(), topologyKey);
  }

  /**
   * Whether the term selects a pod, with an empty {@code namespaces} list read as the namespace of
   * {@code declaringNamespace}, the pod that carries the term.
   */
  public boolean selects(
      String declaringNamespace, String candidateNamespace, Map<String, String> labels) {
    requireNonNull(declaringNamespace, "declaringNamespace is null");
    requireNonNull(candidateNamespace, "candidateNamespace is null");
    boolean inScope =
        namespaces.isEmpty()
            ? declaringNamespace.equals(candidateNamespace)
            : namespaces.contains(candidateNamespace);
    return inScope && labelSelector.matches(labels);
  }
}
