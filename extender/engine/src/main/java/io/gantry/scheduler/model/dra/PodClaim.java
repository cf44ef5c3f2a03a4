package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a pod's {@code spec.resourceClaims}, resolved: {@code name} is the pod's name for
 * the claim, {@code claimName} the ResourceClaim in the pod's namespace (for a template, the claim
 * generated for this pod). {@code fromTemplate} says which form the entry has: a claim named by
 * {@code resourceClaimName} may be shared by pods, so KAI checks its queue label.
 */
public record PodClaim(String name, String claimName, boolean fromTemplate) {
  public PodClaim {
    requireNonNull(name, "name is null");
    requireNonNull(claimName, "claimName is null");
  }
}
