package io.gantry.scheduler.plugins.dynamicresources;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.dra.DraDevice;

/**
 * A device a node reaches, from the newest generation of its pool. {@code nodeLocal}: the slice
 * does not offer it to all nodes, so an allocation of it binds the claim to the node. {@code
 * poolComplete}: every slice of that generation is present.
 */
record CandidateDevice(
    String driver, String pool, DraDevice device, boolean nodeLocal, boolean poolComplete) {
  CandidateDevice {
    requireNonNull(driver, "driver is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(device, "device is null");
  }

  /** {@code <driver>/<pool>/<device>}, the identity allocations are kept by. */
  String id() {
    return driver + "/" + pool + "/" + device.name();
  }
}
