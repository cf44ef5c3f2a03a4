package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;

/**
 * The DRA objects of a snapshot: DeviceClasses by name, ResourceSlices in source order, and
 * ResourceClaims by {@code <namespace>/<name>}.
 */
public record DynamicResources(
    ImmutableSortedMap<String, DeviceClass> deviceClasses,
    ImmutableList<ResourceSlice> slices,
    ImmutableSortedMap<String, ResourceClaim> claims) {

  public static final DynamicResources NONE =
      new DynamicResources(ImmutableSortedMap.of(), ImmutableList.of(), ImmutableSortedMap.of());

  public DynamicResources {
    requireNonNull(deviceClasses, "deviceClasses is null");
    requireNonNull(slices, "slices is null");
    requireNonNull(claims, "claims is null");
  }

  public Optional<ResourceClaim> claim(String namespace, String name) {
    return Optional.ofNullable(claims.get(ResourceClaim.key(namespace, name)));
  }
}
