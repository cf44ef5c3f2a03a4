package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.math.BigDecimal;

/**
 * One entry of a device's {@code consumesCounters}: what an allocation of the device takes from a
 * counter set of its pool.
 */
public record DeviceCounterConsumption(
    String counterSet, ImmutableSortedMap<String, BigDecimal> counters) {
  public DeviceCounterConsumption {
    requireNonNull(counterSet, "counterSet is null");
    requireNonNull(counters, "counters is null");
  }
}
