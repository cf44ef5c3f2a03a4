package io.gantry.deviceagent.deviceplugin;

import io.gantry.gpusharing.inventory.GpuInventory;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The latest inventory discovery took, shared between the discovery loop (which sets it) and the
 * device plugins' {@code Allocate} (which reads each GPU's index and memory from it). Thread-safe.
 */
public final class CurrentInventory {
  private final AtomicReference<GpuInventory> latest = new AtomicReference<>();

  public void set(GpuInventory inventory) {
    latest.set(inventory);
  }

  public Optional<GpuInventory> get() {
    return Optional.ofNullable(latest.get());
  }
}
