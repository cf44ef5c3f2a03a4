package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.Optional;

/**
 * A ResourceClaim: its metadata labels (KAI reads the queue label of a shared GPU claim), its
 * requests, constraints and opaque configurations ({@code config}), and its status ({@code
 * allocation} and the pods in {@code reservedFor}, by name in the claim's namespace).
 */
public record ResourceClaim(
    String namespace,
    String name,
    ImmutableSortedMap<String, String> labels,
    ImmutableList<DeviceRequest> requests,
    ImmutableList<DeviceConstraint> constraints,
    ImmutableList<ClaimConfig> config,
    Optional<AllocationResult> allocation,
    ImmutableList<String> reservedFor) {

  public ResourceClaim {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(requests, "requests is null");
    requireNonNull(constraints, "constraints is null");
    requireNonNull(config, "config is null");
    requireNonNull(allocation, "allocation is null");
    requireNonNull(reservedFor, "reservedFor is null");
  }

  /** This claim's spec with the given status. */
  public ResourceClaim withStatus(
      Optional<AllocationResult> allocation, ImmutableList<String> reservedFor) {
    return new ResourceClaim(
        namespace, name, labels, requests, constraints, config, allocation, reservedFor);
  }

  /** {@code <namespace>/<name>}, how the snapshot keys claims. */
  public String key() {
    return key(namespace, name);
  }

  public static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
