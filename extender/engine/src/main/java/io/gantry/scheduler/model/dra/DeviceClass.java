package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * A DeviceClass: CEL selectors every device allocated through the class must satisfy, and the
 * opaque configurations ({@code config}) an allocation from the class passes to the drivers.
 */
public record DeviceClass(
    String name, ImmutableList<String> selectors, ImmutableList<OpaqueConfig> config) {
  public DeviceClass {
    requireNonNull(name, "name is null");
    requireNonNull(selectors, "selectors is null");
    requireNonNull(config, "config is null");
  }
}
