package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One entry of a pod's {@code spec.resourceClaims}: the pod's {@code name} for the claim, and the
 * ResourceClaim in the pod's namespace, if known: the one named by {@code resourceClaimName}, or
 * for a {@code resourceClaimTemplateName} the claim generated for the pod, which the resourceclaim
 * controller records in the pod's {@code status.resourceClaimStatuses}.
 */
record PodClaimRef(String name, Optional<String> claimName, Optional<String> templateName) {
  PodClaimRef {
    requireNonNull(name, "name is null");
    requireNonNull(claimName, "claimName is null");
    requireNonNull(templateName, "templateName is null");
  }
}
