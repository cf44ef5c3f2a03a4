package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * What one choice of a request asks for: devices of a class that satisfy the selectors, {@code
 * count} of them or all. An {@code exactly} request is one such choice named like its request; a
 * {@code firstAvailable} request lists several, tried in order.
 */
public record DeviceSubRequest(
    String name,
    String deviceClassName,
    ImmutableList<String> selectors,
    AllocationMode allocationMode,
    long count) {

  public DeviceSubRequest {
    requireNonNull(name, "name is null");
    requireNonNull(deviceClassName, "deviceClassName is null");
    requireNonNull(selectors, "selectors is null");
    requireNonNull(allocationMode, "allocationMode is null");
    if (allocationMode == AllocationMode.EXACT_COUNT && count < 1) {
      throw new IllegalArgumentException("count must be at least 1, got " + count);
    }
  }
}
