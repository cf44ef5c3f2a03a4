package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPUs the device plugins offer, from one discovery to the next, and their health as the
 * kubelet hears it. A GPU has the health the latest discovery lists for it. A GPU seen before that
 * the latest discovery does not list (it fell off the bus) stays in the list as unhealthy, so the
 * kubelet stops placing pods on it rather than forgetting it; when discovery fails altogether (the
 * driver stopped answering) every GPU is unhealthy until it works again. GPUs keep the order in
 * which they were first seen. Every change of a known GPU's health goes to the listener.
 * Thread-safe.
 */
final class GpuHealthTracker {
  private static final Logger log = LoggerFactory.getLogger(GpuHealthTracker.class);

  /** The reason of a GPU the latest discovery does not list. */
  static final String NOT_LISTED = "the GPU is no longer listed by discovery";

  private final GpuHealthListener listener;
  private final Map<String, TrackedGpu> known = new LinkedHashMap<>();
  private GpuInventory latest;

  GpuHealthTracker(GpuHealthListener listener) {
    this.listener = requireNonNull(listener, "listener is null");
  }

  /** The GPUs after a discovery that returned {@code inventory}. */
  synchronized ImmutableList<TrackedGpu> update(GpuInventory inventory) {
    latest = inventory;
    Map<String, GpuDevice> present = new LinkedHashMap<>();
    inventory.devices().forEach(d -> present.put(d.uuid(), d));
    for (GpuDevice d : present.values()) {
      change(new TrackedGpu(d.uuid(), d.index(), d.health(), d.numaNode()));
    }
    for (TrackedGpu gpu : ImmutableList.copyOf(known.values())) {
      if (!present.containsKey(gpu.uuid())) {
        change(gpu.unhealthy(NOT_LISTED));
      }
    }
    return ImmutableList.copyOf(known.values());
  }

  /** The GPUs after a discovery that failed: all unhealthy, for {@code why}. */
  synchronized ImmutableList<TrackedGpu> discoveryFailed(String why) {
    for (TrackedGpu gpu : ImmutableList.copyOf(known.values())) {
      change(gpu.unhealthy(why));
    }
    return ImmutableList.copyOf(known.values());
  }

  /**
   * The latest inventory with each GPU's health as tracked (so every GPU is unhealthy while
   * discovery fails); empty before the first discovery.
   */
  synchronized Optional<GpuInventory> reported() {
    if (latest == null) {
      return Optional.empty();
    }
    ImmutableList<GpuDevice> devices =
        latest.devices().stream()
            .map(d -> d.withHealth(known.get(d.uuid()).health()))
            .collect(ImmutableList.toImmutableList());
    return Optional.of(
        new GpuInventory(
            latest.driverVersion(),
            latest.cudaVersion(),
            devices,
            latest.linkMatrixAvailable(),
            latest.gpuLinks(),
            latest.nvlinkDomains()));
  }

  private void change(TrackedGpu next) {
    TrackedGpu before = known.put(next.uuid(), next);
    if (before == null || before.health().equals(next.health())) {
      return;
    }
    if (before.healthy() && !next.healthy()) {
      log.warn("GPU {} is unhealthy: {}", next.uuid(), next.health().reasons());
    } else if (!before.healthy() && next.healthy()) {
      log.info("GPU {} is healthy again", next.uuid());
    }
    listener.healthChanged(
        new GpuHealthChange(next.index(), next.uuid(), before.health().status(), next.health()));
  }
}
