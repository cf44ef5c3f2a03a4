package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/** A DeviceClass: CEL selectors every device allocated through the class must satisfy. */
public record DeviceClass(String name, ImmutableList<String> selectors) {
  public DeviceClass {
    requireNonNull(name, "name is null");
    requireNonNull(selectors, "selectors is null");
  }
}
