package io.gantry.deviceagent.nodeagent;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.GpuInventory;
import java.time.Instant;

/**
 * What {@code GetNode} answers: the inventory with the health the agent reports now, and when the
 * discovery it comes from was taken.
 */
public record InventorySnapshot(GpuInventory inventory, Instant discoveredAt) {
  public InventorySnapshot {
    requireNonNull(inventory, "inventory is null");
    requireNonNull(discoveredAt, "discoveredAt is null");
  }
}
