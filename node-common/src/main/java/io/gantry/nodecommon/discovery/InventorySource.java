package io.gantry.nodecommon.discovery;

import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.inventory.DiscoveryException;

/**
 * Where a node's GPU inventory comes from: nvidia-smi ({@link GpuDiscovery}) or NVML. Both give the
 * same inventory for the same machine.
 */
public interface InventorySource {
  /** For logs and messages: {@code nvidia-smi} or {@code NVML}. */
  String name();

  /**
   * Takes the node's GPU inventory now.
   *
   * @throws DiscoveryException when there is no usable GPU or its answer cannot be read
   */
  GpuInventory discover() throws DiscoveryException;
}
