package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A claim this driver prepared and the answer it gave: what the checkpoint keeps so that a repeated
 * prepare returns the same devices and an unprepare works after the claim object is gone.
 */
public record PreparedClaim(
    String namespace, String uid, String name, List<PreparedDevice> devices) {
  public PreparedClaim {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(uid, "uid is null");
    requireNonNull(name, "name is null");
    devices = List.copyOf(requireNonNull(devices, "devices is null"));
  }
}
