package io.gantry.scheduler.kube.ops;

import io.gantry.scheduler.api.result.NodeOutcome;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * Gantry's per-node gauges after each cycle: {@code node_gpus{node,state}} (GPU devices {@code
 * used}, {@code idle}, {@code releasing}; DRA GPUs count as used) and {@code
 * node_shared_gpu_groups{node}}. Nodes gone are removed.
 */
public final class NodeMeters {
  /** A node's latest outcome, read by its gauges. */
  private static final class Holder {
    volatile NodeOutcome node;
    final List<Meter> meters = new ArrayList<>();

    Holder(NodeOutcome node) {
      this.node = node;
    }
  }

  private final MeterRegistry registry;
  private final String prefix;
  private final Map<String, Holder> nodes = new ConcurrentHashMap<>();

  NodeMeters(MeterRegistry registry, String prefix) {
    this.registry = registry;
    this.prefix = prefix;
  }

  public void publish(List<NodeOutcome> outcomes) {
    Set<String> seen = new HashSet<>();
    for (NodeOutcome n : outcomes) {
      seen.add(n.name());
      Holder existing = nodes.get(n.name());
      if (existing != null) {
        existing.node = n;
        continue;
      }
      Holder h = new Holder(n);
      h.meters.add(gpus(h, n.name(), "used", o -> o.usedGpus()));
      h.meters.add(gpus(h, n.name(), "idle", o -> o.idleGpus()));
      h.meters.add(gpus(h, n.name(), "releasing", o -> o.releasingGpus()));
      h.meters.add(
          Gauge.builder(prefix + "node_shared_gpu_groups", h, x -> x.node.sharedGpuGroups().size())
              .description("shared GPU groups on the node")
              .tags(Tags.of("node", n.name()))
              .register(registry));
      nodes.put(n.name(), h);
    }
    for (String gone : new ArrayList<>(nodes.keySet())) {
      if (!seen.contains(gone)) {
        nodes.remove(gone).meters.forEach(registry::remove);
      }
    }
  }

  private Meter gpus(Holder h, String node, String state, ToIntFunction<NodeOutcome> value) {
    return Gauge.builder(prefix + "node_gpus", h, x -> value.applyAsInt(x.node))
        .description("GPU devices on the node after the last cycle, by state")
        .tags(Tags.of("node", node, "state", state))
        .register(registry);
  }
}
