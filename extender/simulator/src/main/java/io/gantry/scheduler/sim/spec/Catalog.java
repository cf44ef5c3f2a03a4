package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.model.QueueHierarchy;
import java.util.List;
import java.util.Optional;

/**
 * The topologies, nodes and queues already loaded, for checking the references jobs make to them.
 */
final class Catalog {
  private final ImmutableMap<String, TopologySpec> topologies;
  private final ImmutableMap<String, NodeSpec> nodes;
  private final QueueHierarchy queues;

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
    this.topologies = topologiesByName.buildOrThrow();
    this.nodes = nodesByName.buildOrThrow();
    this.queues = QueueSpec.hierarchy(queues);
  }

  Optional<TopologySpec> topology(String name) {
    return Optional.ofNullable(topologies.get(name));
  }

  /** Whether a node of that name exists once counts are expanded. */
  boolean hasNode(String name) {
    return nodes.containsKey(name);
  }

  boolean hasQueue(String name) {
    return queues.contains(name);
  }

  /** Present exactly when {@code queue} has a child queue: jobs go to leaf queues. */
  Optional<QueueHierarchy.NotLeaf> notLeaf(String queue) {
    return queues.firstChild(queue).map(child -> new QueueHierarchy.NotLeaf(queue, child));
  }
}
