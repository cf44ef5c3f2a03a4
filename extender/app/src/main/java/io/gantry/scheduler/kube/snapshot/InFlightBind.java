package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.result.ClaimAllocation;

/**
 * A bind the scheduler decided and has not yet seen in its caches: the pod counts as {@code
 * Binding} on {@code node}, holding these GPU groups and its DRA claims' allocations, until the
 * caches show it bound (and its claims reserved) or the bind fails, so the next cycles do not give
 * its resources away twice.
 */
public record InFlightBind(
    String podUid,
    String node,
    ImmutableList<String> gpuGroups,
    GpuAmount gpuPortion,
    ImmutableList<ClaimAllocation> claims) {
  public InFlightBind {
    requireNonNull(podUid, "podUid is null");
    requireNonNull(node, "node is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
    requireNonNull(claims, "claims is null");
  }
}
