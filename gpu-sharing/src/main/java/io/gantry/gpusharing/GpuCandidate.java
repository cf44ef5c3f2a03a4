package io.gantry.gpusharing;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A device a shared task could use on a node: an existing shared group ({@code groupId} present) or
 * a whole free device (empty), with the portion already in use on it.
 */
public record GpuCandidate(Optional<String> groupId, GpuAmount usedPortion, boolean idleNow) {
  public GpuCandidate {
    requireNonNull(groupId, "groupId is null");
    requireNonNull(usedPortion, "usedPortion is null");
  }

  public boolean isShared() {
    return groupId.isPresent();
  }
}
