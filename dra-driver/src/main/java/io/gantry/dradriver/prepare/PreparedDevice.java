package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One prepared device as the kubelet receives it: the claim requests it serves, its pool and name,
 * and the fully qualified CDI device names the runtime injects.
 */
public record PreparedDevice(
    List<String> requestNames, String poolName, String deviceName, List<String> cdiDeviceIds) {
  public PreparedDevice {
    requestNames = List.copyOf(requireNonNull(requestNames, "requestNames is null"));
    requireNonNull(poolName, "poolName is null");
    requireNonNull(deviceName, "deviceName is null");
    cdiDeviceIds = List.copyOf(requireNonNull(cdiDeviceIds, "cdiDeviceIds is null"));
  }
}
