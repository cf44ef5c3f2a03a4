package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1PodResourceClaimStatus;
import java.util.List;
import java.util.Optional;

/**
 * A pod's DRA claims: read from the pod ({@link #of}), then resolved against the cycle's claims
 * ({@link #resolve}) into the task's {@link PodClaim}s, or the reason the pod waits.
 */
final class PodClaims {
  private PodClaims() {}

  /** The pod's claim references, or why its {@code spec.resourceClaims} cannot be read. */
  static ImmutableList<PodClaimRef> of(V1Pod pod) {
    List<V1PodResourceClaim> claims =
        pod.getSpec() == null ? null : pod.getSpec().getResourceClaims();
    if (claims == null || claims.isEmpty()) {
      return ImmutableList.of();
    }
    List<V1PodResourceClaimStatus> statuses =
        pod.getStatus() == null ? null : pod.getStatus().getResourceClaimStatuses();
    ImmutableList.Builder<PodClaimRef> out = ImmutableList.builder();
    for (int i = 0; i < claims.size(); i++) {
      V1PodResourceClaim c = claims.get(i);
      String field = "spec.resourceClaims[" + i + "]";
      if (c.getName() == null || c.getName().isEmpty()) {
        throw new IllegalArgumentException(field + ".name: expected a non-empty string");
      }
      Optional<String> claimName = nonEmpty(c.getResourceClaimName());
      Optional<String> templateName = nonEmpty(c.getResourceClaimTemplateName());
      if (claimName.isPresent() == templateName.isPresent()) {
        throw new IllegalArgumentException(
            field + ": exactly one of resourceClaimName and resourceClaimTemplateName must be set");
      }
      if (templateName.isPresent()) {
        claimName = generated(c.getName(), statuses);
      }
      out.add(new PodClaimRef(c.getName(), claimName, templateName));
    }
    return out.build();
  }

  private static Optional<String> generated(
      String podClaim, List<V1PodResourceClaimStatus> statuses) {
    if (statuses == null) {
      return Optional.empty();
    }
    return statuses.stream()
        .filter(s -> podClaim.equals(s.getName()))
        .findFirst()
        .flatMap(s -> nonEmpty(s.getResourceClaimName()));
  }

  /** What a pod's claims resolve to: the task's claims, or why the pod waits. */
  record Resolution(ImmutableList<PodClaim> claims, Optional<String> problem) {
    Resolution {
      requireNonNull(claims, "claims is null");
      requireNonNull(problem, "problem is null");
    }

    static Resolution waiting(String why) {
      return new Resolution(ImmutableList.of(), Optional.of(why));
    }
  }

  static Resolution resolve(String namespace, List<PodClaimRef> refs, LiveDra dra) {
    if (refs.isEmpty()) {
      return new Resolution(ImmutableList.of(), Optional.empty());
    }
    if (!dra.synced()) {
      return Resolution.waiting(
          "waiting for the resource.k8s.io/v1 caches (DeviceClasses, ResourceSlices,"
              + " ResourceClaims, ResourceClaimTemplates) to list");
    }
    ImmutableList.Builder<PodClaim> out = ImmutableList.builder();
    for (PodClaimRef ref : refs) {
      if (ref.claimName().isEmpty()) {
        String template = ResourceClaim.key(namespace, ref.templateName().orElseThrow());
        return Resolution.waiting(
            "waiting for the ResourceClaim of pod claim \""
                + ref.name()
                + "\" to be created from ResourceClaimTemplate "
                + template
                + (dra.templates().contains(template) ? "" : ", which does not exist")
                + ": the pod's status.resourceClaimStatuses does not name it yet");
      }
      String key = ResourceClaim.key(namespace, ref.claimName().get());
      String invalid = dra.invalidClaims().get(key);
      if (invalid != null) {
        return Resolution.waiting(
            "ResourceClaim " + key + " of pod claim \"" + ref.name() + "\": " + invalid);
      }
      if (!dra.resources().claims().containsKey(key)) {
        return Resolution.waiting(
            "ResourceClaim "
                + key
                + " of pod claim \""
                + ref.name()
                + "\" does not exist"
                + (ref.templateName().isPresent() ? " yet" : ""));
      }
      out.add(new PodClaim(ref.name(), ref.claimName().get(), ref.templateName().isPresent()));
    }
    return new Resolution(out.build(), Optional.empty());
  }

  private static Optional<String> nonEmpty(String s) {
    return Optional.ofNullable(s).filter(v -> !v.isEmpty());
  }
}
