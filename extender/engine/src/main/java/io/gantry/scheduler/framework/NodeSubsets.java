package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.JobFitReason;
import java.util.Optional;

/**
 * What {@link NodeSubsetter#subsetNodes} made of a node set: the candidate sets in the order to try
 * them, or, when none can hold the pods, why.
 */
public record NodeSubsets(ImmutableList<NodeSubset> candidates, Optional<JobFitReason> error) {
  public NodeSubsets {
    requireNonNull(candidates, "candidates is null");
    requireNonNull(error, "error is null");
  }

  public static NodeSubsets of(ImmutableList<NodeSubset> candidates) {
    return new NodeSubsets(candidates, Optional.empty());
  }

  public static NodeSubsets unchanged(NodeSubset current) {
    return of(ImmutableList.of(current));
  }

  public static NodeSubsets failed(JobFitReason error) {
    return new NodeSubsets(ImmutableList.of(), Optional.of(error));
  }
}
