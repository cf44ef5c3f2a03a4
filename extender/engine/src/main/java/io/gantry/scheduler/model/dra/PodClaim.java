package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a pod's {@code spec.resourceClaims}, resolved: {@code name} is the pod's name for
 * the claim, {@code claimName} the ResourceClaim in the pod's namespace (for a template, the claim
 * generated for this pod).
 */
public record PodClaim(String name, String claimName) {
  public PodClaim {
    requireNonNull(name, "name is null");
    requireNonNull(claimName, "claimName is null");
  }
}
