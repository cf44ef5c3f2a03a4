package io.gantry.scheduler.framework;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The nodes of a session grouped by a key read from each node, re-keyed lazily: a change marks the
 * node stale, and the next {@link #groups()} moves the stale nodes, so a node is keyed once per
 * change, not once per task. Groups are looked up by key and read out in the order of their first
 * node.
 *
 * @param <K> the key: equal for nodes that belong together (a record)
 */
final class NodeGroups<K> {
  /** The nodes of one group, in the session's order; {@code first} is the first of them. */
  record Group(NodeState first, Collection<NodeState> members) {}

  private final Function<NodeState, K> keyOf;
  private final Map<K, TreeMap<Integer, NodeState>> byKey = new HashMap<>();
  private final Map<Integer, K> keyByPosition = new HashMap<>();
  private final List<NodeState> stale = new ArrayList<>();
  private final BitSet staleByPosition = new BitSet();

  NodeGroups(Function<NodeState, K> keyOf) {
    this.keyOf = keyOf;
  }

  /** The node changed (or is new): it is re-keyed on the next {@link #groups()}. */
  void markStale(NodeState node) {
    if (!staleByPosition.get(node.position())) {
      staleByPosition.set(node.position());
      stale.add(node);
    }
  }

  /** Every node, grouped by key, groups in the order of their first node. */
  List<Group> groups() {
    for (NodeState node : stale) {
      K old = keyByPosition.get(node.position());
      if (old != null) {
        TreeMap<Integer, NodeState> members = byKey.get(old);
        members.remove(node.position());
        if (members.isEmpty()) {
          byKey.remove(old);
        }
      }
      K key = keyOf.apply(node);
      keyByPosition.put(node.position(), key);
      byKey.computeIfAbsent(key, k -> new TreeMap<>()).put(node.position(), node);
    }
    stale.clear();
    staleByPosition.clear();
    List<Group> out = new ArrayList<>(byKey.size());
    for (TreeMap<Integer, NodeState> members : byKey.values()) {
      out.add(
          new Group(
              members.firstEntry().getValue(),
              Collections.unmodifiableCollection(members.values())));
    }
    out.sort(Comparator.comparingInt(g -> g.first().position()));
    return out;
  }
}
