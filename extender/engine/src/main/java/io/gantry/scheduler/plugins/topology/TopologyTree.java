package io.gantry.scheduler.plugins.topology;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.model.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Topology's domains in one session (kai-reference §9): per level, each domain (id = the
 * dot-joined label values from the top level down) with its nodes. A node that lacks any level
 * label is in no domain, and so is never offered to a constrained group.
 */
final class TopologyTree {
  private final Topology topology;
  private final ImmutableList<ImmutableList<Domain>> levels;
  private final Map<String, ImmutableList<String>> idsByNode;

  private TopologyTree(
      Topology topology,
      ImmutableList<ImmutableList<Domain>> levels,
      Map<String, ImmutableList<String>> idsByNode) {
    this.topology = topology;
    this.levels = levels;
    this.idsByNode = idsByNode;
  }

  static TopologyTree build(Topology topology, List<NodeState> nodes) {
    int depth = topology.levels().size();
    List<Map<String, List<NodeState>>> members = new ArrayList<>();
    List<Map<String, ImmutableList<String>>> paths = new ArrayList<>();
    for (int l = 0; l < depth; l++) {
      members.add(new TreeMap<>());
      paths.add(new TreeMap<>());
    }
    Map<String, ImmutableList<String>> idsByNode = new HashMap<>();
    for (NodeState node : nodes) {
      Optional<ImmutableList<String>> ids = topology.domainIds(node.info().labels());
      if (ids.isEmpty()) {
        continue;
      }
      idsByNode.put(node.name(), ids.get());
      for (int l = 0; l < depth; l++) {
        String id = ids.get().get(l);
        members.get(l).computeIfAbsent(id, k -> new ArrayList<>()).add(node);
        paths.get(l).putIfAbsent(id, ids.get().subList(0, l + 1));
      }
    }
    ImmutableList.Builder<ImmutableList<Domain>> levels = ImmutableList.builder();
    for (int l = 0; l < depth; l++) {
      ImmutableList.Builder<Domain> domains = ImmutableList.builder();
      for (Map.Entry<String, List<NodeState>> e : members.get(l).entrySet()) {
        domains.add(new Domain(paths.get(l).get(e.getKey()), ImmutableList.copyOf(e.getValue())));
      }
      levels.add(domains.build());
    }
    return new TopologyTree(topology, levels.build(), idsByNode);
  }

  Topology topology() {
    return topology;
  }

  /** The domains of a level, by id. */
  ImmutableList<Domain> domains(int level) {
    return levels.get(level);
  }

  /** The node's domain ids, widest level first; empty when the node is in no domain. */
  Optional<ImmutableList<String>> idsOf(String node) {
    return Optional.ofNullable(idsByNode.get(node));
  }
}
