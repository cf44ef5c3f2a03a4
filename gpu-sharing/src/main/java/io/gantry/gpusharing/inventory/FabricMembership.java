package io.gantry.gpusharing.inventory;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * A GPU registered with an NVLink (NVSwitch) fabric: nvidia-smi -q -x reports fabric/state
 * Completed and fabric/status Success. Drivers from 570 on also give the clique: GPUs with the same
 * cluster UUID and clique id share one NVLink domain, which spans nodes when the cluster UUID is
 * not all zeros (for example a GB200 NVL72 rack).
 */
public record FabricMembership(Optional<String> clusterUuid, OptionalInt cliqueId) {
  private static final String ZERO_UUID = "00000000-0000-0000-0000-000000000000";

  public FabricMembership {
    requireNonNull(clusterUuid, "clusterUuid is null");
    requireNonNull(cliqueId, "cliqueId is null");
  }

  /**
   * True when the domain leaves the node: the fabric has a cluster UUID other than all zeros (on a
   * single HGX board the fabric manager reports the zero UUID).
   */
  public boolean multiNode() {
    return clusterUuid.filter(u -> !u.equals(ZERO_UUID)).isPresent();
  }

  /**
   * The clique name {@code <clusterUuid>.<cliqueId>} of a multi-node fabric (the value NVIDIA's GPU
   * feature discovery puts in the nvidia.com/gpu.clique label); empty for a node-local fabric.
   */
  public Optional<String> clique() {
    if (!multiNode()) {
      return Optional.empty();
    }
    return Optional.of(
        clusterUuid.orElseThrow() + "." + (cliqueId.isPresent() ? cliqueId.getAsInt() : 0));
  }
}
