package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

/**
 * An opaque device configuration ({@code opaque} of a DeviceClass's or a claim's {@code config}):
 * the driver it is meant for and its {@code parameters}, kept as compact JSON text of an object.
 * The engine never reads the parameters; it only passes them on in the allocation, where the driver
 * reads them when it prepares the devices.
 */
public record OpaqueConfig(String driver, String parametersJson) {
  public OpaqueConfig {
    requireNonNull(driver, "driver is null");
    requireNonNull(parametersJson, "parametersJson is null");
    if (driver.isEmpty()) {
      throw new IllegalArgumentException("driver must not be empty");
    }
    if (!parametersJson.startsWith("{")) {
      throw new IllegalArgumentException("parameters must be a JSON object, got " + parametersJson);
    }
  }
}
