package io.gantry.deviceagent.deviceplugin;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.HealthStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPUs the device plugins offer, from one discovery to the next. A GPU is healthy when the
 * latest discovery lists it healthy. A GPU seen before that the latest discovery does not list (it
 * fell off the bus) stays in the list as unhealthy, so the kubelet stops placing pods on it rather
 * than forgetting it; when discovery fails altogether (the driver stopped answering) every GPU is
 * unhealthy until it works again. GPUs keep the order in which they were first seen. Thread-safe.
 */
final class GpuHealthTracker {
  private static final Logger log = LoggerFactory.getLogger(GpuHealthTracker.class);

  private final Map<String, TrackedGpu> known = new LinkedHashMap<>();

  /** The GPUs after a discovery that returned {@code inventory}. */
  synchronized ImmutableList<TrackedGpu> update(GpuInventory inventory) {
    Map<String, GpuDevice> present = new LinkedHashMap<>();
    inventory.devices().forEach(d -> present.put(d.uuid(), d));
    for (GpuDevice d : present.values()) {
      boolean healthy = d.health().status() == HealthStatus.HEALTHY;
      change(
          d.uuid(),
          new TrackedGpu(d.uuid(), healthy, d.numaNode()),
          d.health().reasons().toString());
    }
    for (TrackedGpu gpu : ImmutableList.copyOf(known.values())) {
      if (!present.containsKey(gpu.uuid())) {
        change(gpu.uuid(), new TrackedGpu(gpu.uuid(), false, gpu.numaNode()), "no longer listed");
      }
    }
    return ImmutableList.copyOf(known.values());
  }

  /** The GPUs after a discovery that failed: all unhealthy. */
  synchronized ImmutableList<TrackedGpu> discoveryFailed(String why) {
    for (TrackedGpu gpu : ImmutableList.copyOf(known.values())) {
      change(gpu.uuid(), new TrackedGpu(gpu.uuid(), false, gpu.numaNode()), why);
    }
    return ImmutableList.copyOf(known.values());
  }

  private void change(String uuid, TrackedGpu next, String why) {
    TrackedGpu before = known.put(uuid, next);
    if (before != null && before.healthy() && !next.healthy()) {
      log.warn("GPU {} is unhealthy: {}", uuid, why);
    } else if (before != null && !before.healthy() && next.healthy()) {
      log.info("GPU {} is healthy again", uuid);
    }
  }
}
