package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.dra.AllocationResult;

/**
 * A ResourceClaim of a bound task with the allocation to write into its {@code status.allocation}
 * before the pod is bound. {@code podClaimName} is the pod's name for the claim, {@code claimName}
 * the ResourceClaim in the task's namespace.
 */
public record ClaimAllocation(String podClaimName, String claimName, AllocationResult allocation) {
  public ClaimAllocation {
    requireNonNull(podClaimName, "podClaimName is null");
    requireNonNull(claimName, "claimName is null");
    requireNonNull(allocation, "allocation is null");
  }
}
