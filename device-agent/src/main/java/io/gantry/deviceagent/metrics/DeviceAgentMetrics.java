package io.gantry.deviceagent.metrics;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.mps.MpsDaemons;
import io.gantry.nodecommon.discovery.InventorySource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.Optional;

/**
 * The device agent's meters on its {@code /metrics}, every name under {@value #PREFIX} (Prometheus
 * form {@code gantry_device_agent_…}) and labelled with the agent's {@code node}; the names are not
 * renamed by a metrics namespace (KAI has no node metrics to match). docs/observability.md lists
 * them. Each part goes to the class whose events it counts.
 */
public final class DeviceAgentMetrics {
  /** Every meter's name starts with this. */
  public static final String PREFIX = "gantry.device.agent.";

  private final MeterRegistry registry;
  private final Tags node;
  private final GpuMetrics gpus;
  private final OverGrantMetrics overGrant;
  private final AllocationMetrics allocations;

  public DeviceAgentMetrics(MeterRegistry registry, String nodeName) {
    this.registry = requireNonNull(registry, "registry is null");
    this.node = Tags.of("node", requireNonNull(nodeName, "nodeName is null"));
    this.gpus = new GpuMetrics(registry, this.node);
    this.overGrant = new OverGrantMetrics(registry, this.node);
    this.allocations = new AllocationMetrics(registry, this.node);
  }

  public GpuMetrics gpus() {
    return gpus;
  }

  public OverGrantMetrics overGrant() {
    return overGrant;
  }

  public AllocationMetrics allocations() {
    return allocations;
  }

  /** {@code source}, each discovery timed and counted by result. */
  public InventorySource timed(InventorySource source) {
    return new TimedDiscovery(source, registry, node);
  }

  /** {@code gantry_device_agent_mps_daemons}: the MPS control daemons running now. */
  public void mpsDaemons(MpsDaemons daemons) {
    Gauge.builder(PREFIX + "mps.daemons", daemons, d -> d.running().size())
        .description("MPS control daemons the agent runs")
        .tags(node)
        .strongReference(true)
        .register(registry);
  }

  /** A gauge of many rows, {@value #PREFIX}{@code name}, with the node's tag on every row. */
  static GaugeRows gaugeRows(
      MeterRegistry registry,
      Tags node,
      String name,
      Optional<String> baseUnit,
      String description) {
    return new GaugeRows(
        MultiGauge.builder(PREFIX + name)
            .description(description)
            .baseUnit(baseUnit.orElse(null))
            .tags(node)
            .register(registry));
  }
}
