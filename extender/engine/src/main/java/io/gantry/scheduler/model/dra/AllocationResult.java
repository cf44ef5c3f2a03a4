package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * A claim's {@code status.allocation}: its devices ({@code devices.results}), the opaque
 * configurations passed to their drivers ({@code devices.config}: the classes' before the claim's,
 * protocols.md §4.5 item 6), and the node they bind the claim to ({@code nodeSelector} matching
 * {@code metadata.name}); empty when every device is reachable from all nodes.
 */
public record AllocationResult(
    ImmutableList<DeviceResult> devices,
    ImmutableList<AllocationConfig> config,
    Optional<String> nodeName) {
  public AllocationResult {
    requireNonNull(devices, "devices is null");
    requireNonNull(config, "config is null");
    requireNonNull(nodeName, "nodeName is null");
  }

  /** Whether a pod on this node may use the allocation. */
  public boolean usableOn(String node) {
    return nodeName.isEmpty() || nodeName.get().equals(node);
  }
}
