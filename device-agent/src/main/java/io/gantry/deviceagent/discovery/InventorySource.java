package io.gantry.deviceagent.discovery;

import io.gantry.deviceagent.inventory.DiscoveryException;
import io.gantry.gpusharing.inventory.GpuInventory;

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
