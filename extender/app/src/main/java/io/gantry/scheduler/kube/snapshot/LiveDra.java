package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.ResourceClaim;
import java.util.Map;
import java.util.Optional;

/**
 * One cycle's DRA objects: what enters the snapshot, the claims that cannot (by {@code
 * namespace/name}, with why), the ResourceClaimTemplates (by {@code namespace/name}), and whether
 * the caches have synced at all.
 */
record LiveDra(
    boolean synced,
    DynamicResources resources,
    ImmutableSortedMap<String, String> invalidClaims,
    ImmutableSortedSet<String> templates) {

  static final LiveDra NOT_SYNCED =
      new LiveDra(false, DynamicResources.NONE, ImmutableSortedMap.of(), ImmutableSortedSet.of());

  LiveDra {
    requireNonNull(resources, "resources is null");
    requireNonNull(invalidClaims, "invalidClaims is null");
    requireNonNull(templates, "templates is null");
  }

  /**
   * The resources with the allocations of binds still in flight assumed for claims whose cached
   * status does not show one yet, so that no later cycle hands their devices out again.
   */
  DynamicResources assuming(Map<String, AllocationResult> inFlight) {
    if (inFlight.isEmpty()) {
      return resources;
    }
    ImmutableSortedMap.Builder<String, ResourceClaim> claims = ImmutableSortedMap.naturalOrder();
    for (ResourceClaim c : resources.claims().values()) {
      Optional<AllocationResult> assumed = Optional.ofNullable(inFlight.get(c.key()));
      claims.put(
          c.key(),
          c.allocation().isPresent() || assumed.isEmpty()
              ? c
              : c.withStatus(assumed, c.reservedFor()));
    }
    return new DynamicResources(resources.deviceClasses(), resources.slices(), claims.build());
  }
}
