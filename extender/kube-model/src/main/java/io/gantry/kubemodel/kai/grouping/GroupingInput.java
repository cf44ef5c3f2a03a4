package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * What KAI's podgrouper reads for one pod: the top owner, the chain of owners walked up to it, the
 * top owner's spec facts, and the pod.
 *
 * @param owners the owners in the order the podgrouper walks them: the pod's owner first, the top
 *     owner last; empty for a pod without owners (whose top owner is the pod itself)
 */
public record GroupingInput(
    OwnerMeta topOwner, ImmutableList<OwnerMeta> owners, WorkloadSpec spec, PodMeta pod) {
  public GroupingInput {
    requireNonNull(topOwner, "topOwner is null");
    requireNonNull(owners, "owners is null");
    requireNonNull(spec, "spec is null");
    requireNonNull(pod, "pod is null");
  }

  /** A pod without owners. */
  public static GroupingInput barePod(PodMeta pod) {
    return new GroupingInput(pod.asOwner(), ImmutableList.of(), WorkloadSpec.PLAIN, pod);
  }

  /** A pod whose only owner is {@code owner}. */
  public static GroupingInput ownedBy(OwnerMeta owner, WorkloadSpec spec, PodMeta pod) {
    return new GroupingInput(owner, ImmutableList.of(owner), spec, pod);
  }

  public static GroupingInput of(List<OwnerMeta> ownersUpToTop, WorkloadSpec spec, PodMeta pod) {
    if (ownersUpToTop.isEmpty()) {
      throw new IllegalArgumentException("a pod with owners has at least one; use barePod");
    }
    return new GroupingInput(
        ownersUpToTop.get(ownersUpToTop.size() - 1),
        ImmutableList.copyOf(ownersUpToTop),
        spec,
        pod);
  }

  public WorkloadKind kind() {
    return WorkloadKind.of(topOwner);
  }
}
