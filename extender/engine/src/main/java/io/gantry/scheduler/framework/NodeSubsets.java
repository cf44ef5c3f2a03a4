package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.JobFitReason;

/**
 * What {@link NodeSubsetter#subsetNodes} made of a node set: the candidate sets in the order to try
 * them, or, when none can hold the pods, why (KAI records one fit error per domain that was too
 * small, then the unmet requirement, kai-reference §9 (e)).
 */
public record NodeSubsets(
    ImmutableList<NodeSubset> candidates, ImmutableList<JobFitReason> errors) {
  public NodeSubsets {
    requireNonNull(candidates, "candidates is null");
    requireNonNull(errors, "errors is null");
  }

  public static NodeSubsets of(ImmutableList<NodeSubset> candidates) {
    return new NodeSubsets(candidates, ImmutableList.of());
  }

  public static NodeSubsets unchanged(NodeSubset current) {
    return of(ImmutableList.of(current));
  }

  public static NodeSubsets failed(JobFitReason error) {
    return failed(ImmutableList.of(error));
  }

  public static NodeSubsets failed(ImmutableList<JobFitReason> errors) {
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("a failed split needs a reason");
    }
    return new NodeSubsets(ImmutableList.of(), errors);
  }

  public boolean failed() {
    return !errors.isEmpty();
  }
}
