package io.gantry.kubemodel.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourceSlice;
import java.util.List;
import java.util.Optional;

/**
 * A scenario's DRA objects ({@code deviceClasses}, {@code resourceSlices}, {@code resourceClaims},
 * {@code resourceClaimTemplates}), in file order. A template is kept as the claim it stamps out,
 * named and namespaced like the template.
 */
public record DraSpec(
    List<DeviceClass> deviceClasses,
    List<ResourceSlice> slices,
    List<ResourceClaim> claims,
    List<ResourceClaim> templates) {
  public static final DraSpec NONE = new DraSpec(List.of(), List.of(), List.of(), List.of());

  public DraSpec {
    deviceClasses = ImmutableList.copyOf(requireNonNull(deviceClasses, "deviceClasses is null"));
    slices = ImmutableList.copyOf(requireNonNull(slices, "slices is null"));
    claims = ImmutableList.copyOf(requireNonNull(claims, "claims is null"));
    templates = ImmutableList.copyOf(requireNonNull(templates, "templates is null"));
  }

  public Optional<ResourceClaim> claim(String namespace, String name) {
    return find(claims, namespace, name);
  }

  public Optional<ResourceClaim> template(String namespace, String name) {
    return find(templates, namespace, name);
  }

  private static Optional<ResourceClaim> find(
      List<ResourceClaim> claims, String namespace, String name) {
    return claims.stream()
        .filter(c -> c.namespace().equals(namespace) && c.name().equals(name))
        .findFirst();
  }
}
