package io.gantry.scheduler.plugins.dynamicresources;

import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.ResourceClaim;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which claims hold an allocation in this session and which devices they hold: the snapshot's
 * {@code status.allocation}s, plus what this session gave claims of placed tasks. A session-made
 * allocation lasts while at least one placed task uses its claim, so it is undone with the
 * statement that placed them; the counters the held devices consume ({@link CounterBudget}) follow.
 * Maps are looked up, never iterated.
 */
final class ClaimLedger {
  private final Map<String, AllocationResult> allocations = new HashMap<>();
  private final Map<String, Integer> sessionUsers = new HashMap<>();
  private final Map<String, String> deviceHolders = new HashMap<>();

  private final CounterBudget counters;

  ClaimLedger(DynamicResources resources, CounterBudget counters) {
    this.counters = counters;
    for (ResourceClaim claim : resources.claims().values()) {
      claim.allocation().ifPresent(a -> record(claim.key(), a));
    }
  }

  Optional<AllocationResult> allocation(String claimKey) {
    return Optional.ofNullable(allocations.get(claimKey));
  }

  /** Ids ({@code <driver>/<pool>/<device>}) of every device some claim holds; a live view. */
  Set<String> heldDevices() {
    return Collections.unmodifiableSet(deviceHolders.keySet());
  }

  /** The shared counters, with what the held devices consume of them. */
  CounterBudget counters() {
    return counters;
  }

  /** This session allocates the claim for a task placed now. */
  void allocate(String claimKey, AllocationResult allocation) {
    if (allocations.containsKey(claimKey)) {
      throw new IllegalStateException("claim " + claimKey + " is already allocated");
    }
    record(claimKey, allocation);
    sessionUsers.put(claimKey, 1);
  }

  /** Another task placed now uses the claim's existing allocation. */
  void use(String claimKey) {
    sessionUsers.computeIfPresent(claimKey, (k, n) -> n + 1);
  }

  /**
   * A task placed in this session no longer is; the last one to leave a session-made allocation
   * frees its devices. Allocations the snapshot showed stay: only the binder's release removes
   * them.
   */
  void release(String claimKey) {
    Integer users = sessionUsers.get(claimKey);
    if (users == null) {
      return;
    }
    if (users > 1) {
      sessionUsers.put(claimKey, users - 1);
      return;
    }
    sessionUsers.remove(claimKey);
    AllocationResult allocation = allocations.remove(claimKey);
    for (DeviceResult d : allocation.devices()) {
      if (deviceHolders.remove(d.deviceId()) != null) {
        counters.release(d.deviceId());
      }
    }
  }

  private void record(String claimKey, AllocationResult allocation) {
    allocations.put(claimKey, allocation);
    for (DeviceResult d : allocation.devices()) {
      if (deviceHolders.put(d.deviceId(), claimKey) == null) {
        counters.hold(d.deviceId());
      }
    }
  }
}
