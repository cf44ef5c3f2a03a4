package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One entry of a task's {@code resourceClaims} (a pod's {@code spec.resourceClaims}): exactly one
 * of {@code resourceClaimName} and {@code resourceClaimTemplateName}. {@code field} and {@code
 * line} locate it for errors found when the scenario is compiled.
 */
public record PodClaimSpec(
    String name,
    Optional<String> resourceClaimName,
    Optional<String> resourceClaimTemplateName,
    String field,
    int line) {
  public PodClaimSpec {
    requireNonNull(name, "name is null");
    requireNonNull(resourceClaimName, "resourceClaimName is null");
    requireNonNull(resourceClaimTemplateName, "resourceClaimTemplateName is null");
    requireNonNull(field, "field is null");
  }
}
