package io.gantry.deviceagent.metrics;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The device plugins' {@code Allocate} answers (device-plugin mode only): {@code
 * gantry_device_agent_allocations_total} per container, by resource ({@code nvidia.com/gpu}, {@code
 * gantry.io/gpu-share}) and result ({@code allocated}, {@code refused}: the kubelet fails the pod).
 * Thread-safe.
 */
public final class AllocationMetrics {
  private final MeterRegistry registry;
  private final Tags node;

  AllocationMetrics(MeterRegistry registry, Tags node) {
    this.registry = requireNonNull(registry, "registry is null");
    this.node = requireNonNull(node, "node is null");
  }

  /** {@code containers} of one {@code Allocate} call were given their devices. */
  public void allocated(String resource, int containers) {
    counter(resource, "allocated").increment(containers);
  }

  /** {@code containers} of one {@code Allocate} call were refused. */
  public void refused(String resource, int containers) {
    counter(resource, "refused").increment(containers);
  }

  private Counter counter(String resource, String result) {
    return Counter.builder(DeviceAgentMetrics.PREFIX + "allocations")
        .description("Containers the device plugins' Allocate answered, by result")
        .tags(node)
        .tag("resource", resource)
        .tag("result", result)
        .register(registry);
  }
}
