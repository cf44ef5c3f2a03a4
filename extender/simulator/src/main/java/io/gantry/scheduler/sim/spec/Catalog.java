package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * The topologies, nodes and queues already loaded, for checking the references jobs make to them.
 */
final class Catalog {
  private final ImmutableMap<String, TopologySpec> topologies;
  private final ImmutableMap<String, NodeSpec> nodes;
  private final ImmutableMap<String, QueueSpec> queues;
  private final ImmutableMap<String, String> firstChildOf;

  Catalog(List<TopologySpec> topologies, List<NodeSpec> nodes, List<QueueSpec> queues) {
    ImmutableMap.Builder<String, TopologySpec> topologiesByName = ImmutableMap.builder();
    for (TopologySpec topology : topologies) {
      topologiesByName.put(topology.name(), topology);
    }
    ImmutableMap.Builder<String, NodeSpec> nodesByName = ImmutableMap.builder();
    for (NodeSpec node : nodes) {
      for (String name : node.expandedNames()) {
        nodesByName.put(name, node);
      }
    }
    ImmutableMap.Builder<String, QueueSpec> queuesByName = ImmutableMap.builder();
    LinkedHashMap<String, String> children = new LinkedHashMap<>();
    for (QueueSpec queue : queues) {
      queuesByName.put(queue.name(), queue);
      queue.parent().ifPresent(parent -> children.putIfAbsent(parent, queue.name()));
    }
    this.topologies = topologiesByName.buildOrThrow();
    this.nodes = nodesByName.buildOrThrow();
    this.queues = queuesByName.buildOrThrow();
    this.firstChildOf = ImmutableMap.copyOf(children);
  }

  Optional<TopologySpec> topology(String name) {
    return Optional.ofNullable(topologies.get(name));
  }

  /** Whether a node of that name exists once counts are expanded. */
  boolean hasNode(String name) {
    return nodes.containsKey(name);
  }

  boolean hasQueue(String name) {
    return queues.containsKey(name);
  }

  /** A queue that names {@code queue} as its parent; present exactly when it is not a leaf. */
  Optional<String> childOf(String queue) {
    return Optional.ofNullable(firstChildOf.get(queue));
  }
}
