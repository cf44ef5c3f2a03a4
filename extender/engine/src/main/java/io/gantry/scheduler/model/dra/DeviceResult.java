package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

/**
 * One allocated device: {@code request} is the request's name, {@code <request>/<sub>} for a
 * choice.
 */
public record DeviceResult(String request, String driver, String pool, String device) {
  public DeviceResult {
    requireNonNull(request, "request is null");
    requireNonNull(driver, "driver is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(device, "device is null");
  }

  /** The device's identity, {@code <driver>/<pool>/<device>}. */
  public String deviceId() {
    return driver + "/" + pool + "/" + device;
  }
}
