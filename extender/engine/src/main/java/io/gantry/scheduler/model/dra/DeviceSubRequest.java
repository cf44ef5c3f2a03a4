package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.placement.Toleration;

/**
 * What one choice of a request asks for: devices of a class that satisfy the selectors, {@code
 * count} of them or all. An {@code exactly} request is one such choice named like its request; a
 * {@code firstAvailable} request lists several, tried in order. {@code tolerations} let it take
 * devices with the taints they tolerate.
 */
public record DeviceSubRequest(
    String name,
    String deviceClassName,
    ImmutableList<String> selectors,
    AllocationMode allocationMode,
    long count,
    ImmutableList<Toleration> tolerations) {

  public DeviceSubRequest {
    requireNonNull(name, "name is null");
    requireNonNull(deviceClassName, "deviceClassName is null");
    requireNonNull(selectors, "selectors is null");
    requireNonNull(allocationMode, "allocationMode is null");
    requireNonNull(tolerations, "tolerations is null");
    if (allocationMode == AllocationMode.EXACT_COUNT && count < 1) {
      throw new IllegalArgumentException("count must be at least 1, got " + count);
    }
  }
}
