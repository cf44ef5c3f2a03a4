package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * One entry of a claim's {@code spec.devices.config}: an opaque configuration for the devices of
 * the named requests ({@code <request>} or {@code <request>/<subrequest>}); no names means every
 * request of the claim.
 */
public record ClaimConfig(ImmutableList<String> requests, OpaqueConfig opaque) {
  public ClaimConfig {
    requireNonNull(requests, "requests is null");
    requireNonNull(opaque, "opaque is null");
  }
}
