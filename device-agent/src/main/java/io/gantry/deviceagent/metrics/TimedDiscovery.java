package io.gantry.deviceagent.metrics;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.discovery.InventorySource;
import io.gantry.nodecommon.inventory.DiscoveryException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * An inventory source that times each discovery into {@code gantry_device_agent_discovery_seconds}
 * ({@code _count} is the runs, {@code _sum} their time), labelled with the source ({@code
 * nvidia-smi}, {@code NVML}) and the result ({@code ok}, {@code failed}).
 */
final class TimedDiscovery implements InventorySource {
  private final InventorySource source;
  private final Timer ok;
  private final Timer failed;

  TimedDiscovery(InventorySource source, MeterRegistry registry, Tags node) {
    this.source = requireNonNull(source, "source is null");
    this.ok = timer(registry, node, "ok");
    this.failed = timer(registry, node, "failed");
  }

  private Timer timer(MeterRegistry registry, Tags node, String result) {
    return Timer.builder(DeviceAgentMetrics.PREFIX + "discovery")
        .description("GPU discoveries and how long each took")
        .tags(node)
        .tag("source", source.name())
        .tag("result", result)
        .register(registry);
  }

  @Override
  public String name() {
    return source.name();
  }

  @Override
  public GpuInventory discover() throws DiscoveryException {
    long start = System.nanoTime();
    try {
      GpuInventory inventory = source.discover();
      ok.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
      return inventory;
    } catch (DiscoveryException e) {
      failed.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
      throw e;
    }
  }
}
