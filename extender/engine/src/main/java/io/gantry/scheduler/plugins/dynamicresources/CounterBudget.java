package io.gantry.scheduler.plugins.dynamicresources;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.CounterSet;
import io.gantry.scheduler.model.dra.DeviceCounterConsumption;
import io.gantry.scheduler.model.dra.DraDevice;
import io.gantry.scheduler.model.dra.ResourceSlice;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shared counters of the pools (protocols.md §4.5 item 3): what each counter set of a pool's
 * newest slices holds, and how much of it the devices that claims hold consume. A device is
 * allocatable only while its consumption, added to what is held and to what the question at hand
 * has picked, stays within every counter it names; a counter its pool does not define holds
 * nothing. The ledger tells it which devices are held, so a rolled-back gang gives its counters
 * back. Maps are looked up, never iterated.
 */
final class CounterBudget {
  /** One counter of one counter set of a pool. */
  record CounterKey(String driver, String pool, String counterSet, String counter) {
    @Override
    public String toString() {
      return "counter "
          + counter
          + " of counter set "
          + counterSet
          + " in pool "
          + driver
          + "/"
          + pool;
    }
  }

  /** An amount one device takes from one counter. */
  record Use(CounterKey counter, BigDecimal amount) {}

  private final Map<CounterKey, BigDecimal> capacity = new HashMap<>();
  private final Map<String, ImmutableList<Use>> usesByDevice = new HashMap<>();
  private final Map<CounterKey, BigDecimal> held = new HashMap<>();

  /**
   * @param slices the newest slices of each pool ({@link DevicePools#current()})
   */
  CounterBudget(List<ResourceSlice> slices) {
    for (ResourceSlice s : slices) {
      for (CounterSet set : s.sharedCounters()) {
        set.counters()
            .forEach(
                (name, value) ->
                    capacity.put(
                        new CounterKey(s.driver(), s.pool().name(), set.name(), name), value));
      }
      for (DraDevice d : s.devices()) {
        if (!d.consumesCounters().isEmpty()) {
          usesByDevice.put(
              CandidateDevice.id(s.driver(), s.pool().name(), d.name()),
              uses(s.driver(), s.pool().name(), d));
        }
      }
    }
  }

  /** What the device takes from its pool's counters. */
  static ImmutableList<Use> uses(String driver, String pool, DraDevice device) {
    ImmutableList.Builder<Use> out = ImmutableList.builder();
    for (DeviceCounterConsumption c : device.consumesCounters()) {
      c.counters()
          .forEach(
              (name, amount) ->
                  out.add(new Use(new CounterKey(driver, pool, c.counterSet(), name), amount)));
    }
    return out.build();
  }

  /** A claim holds the device with this id ({@code <driver>/<pool>/<device>}). */
  void hold(String deviceId) {
    for (Use u : usesByDevice.getOrDefault(deviceId, ImmutableList.of())) {
      held.merge(u.counter(), u.amount(), BigDecimal::add);
    }
  }

  /** The device with this id is held no longer. */
  void release(String deviceId) {
    for (Use u : usesByDevice.getOrDefault(deviceId, ImmutableList.of())) {
      held.merge(u.counter(), u.amount().negate(), BigDecimal::add);
    }
  }

  /**
   * The first counter the uses would overdraw, on top of what is held and of {@code pending} (what
   * the current question has picked already); empty when they fit.
   */
  Optional<CounterKey> overdrawn(List<Use> uses, Map<CounterKey, BigDecimal> pending) {
    for (Use u : uses) {
      BigDecimal total =
          u.amount()
              .add(held.getOrDefault(u.counter(), BigDecimal.ZERO))
              .add(pending.getOrDefault(u.counter(), BigDecimal.ZERO));
      if (total.compareTo(capacity.getOrDefault(u.counter(), BigDecimal.ZERO)) > 0) {
        return Optional.of(u.counter());
      }
    }
    return Optional.empty();
  }
}
