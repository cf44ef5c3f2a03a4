package io.gantry.scheduler.plugins.dynamicresources;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DraDevice;

/**
 * A device a node reaches, from the newest generation of its pool. {@code nodes}: the nodes that
 * reach it (its slice's, or its own under {@code perDeviceNodeSelection}), which an allocation of
 * it binds the claim to. {@code poolComplete}: every slice of that generation is present. {@code
 * counterUses}: what it takes from its pool's shared counters.
 */
record CandidateDevice(
    String driver,
    String pool,
    DraDevice device,
    DeviceNodes nodes,
    boolean poolComplete,
    ImmutableList<CounterBudget.Use> counterUses) {
  CandidateDevice {
    requireNonNull(driver, "driver is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(device, "device is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(counterUses, "counterUses is null");
  }

  /** {@code <driver>/<pool>/<device>}, the identity allocations are kept by. */
  String id() {
    return id(driver, pool, device.name());
  }

  static String id(String driver, String pool, String device) {
    return driver + "/" + pool + "/" + device;
  }
}
