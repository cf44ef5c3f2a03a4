package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
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

  /** A group's key and its nodes by position. */
  private record Members<G>(G key, TreeMap<Integer, NodeState> nodes) {}

  private final Function<NodeState, K> keyOf;
  private final Map<K, Members<K>> byKey = new HashMap<>();

  /** Each node's group, by position: a node leaves it without hashing its old key again. */
  private final Map<Integer, Members<K>> membersByPosition = new HashMap<>();

  private final List<NodeState> stale = new ArrayList<>();
  private final BitSet staleByPosition = new BitSet();

  /**
   * The groups by their first node's position, kept as nodes move: a move touches two groups, so
   * reading the groups out needs no sort and no new group per group.
   */
  private final TreeMap<Integer, Group> byFirst = new TreeMap<>();

  /** {@link #byFirst}'s groups as last read out, until a node moves. */
  private ImmutableList<Group> readOut = ImmutableList.of();

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
    if (stale.isEmpty()) {
      return readOut;
    }
    for (NodeState node : stale) {
      Members<K> old = membersByPosition.get(node.position());
      if (old != null) {
        remove(old, node);
      }
      membersByPosition.put(node.position(), add(keyOf.apply(node), node));
    }
    stale.clear();
    staleByPosition.clear();
    readOut = ImmutableList.copyOf(byFirst.values());
    return readOut;
  }

  private void remove(Members<K> group, NodeState node) {
    TreeMap<Integer, NodeState> members = group.nodes();
    int first = members.firstKey();
    members.remove(node.position());
    if (members.isEmpty()) {
      byKey.remove(group.key());
      byFirst.remove(first);
    } else if (first == node.position()) {
      byFirst.remove(first);
      track(members);
    }
  }

  /** Puts the node in the group of {@code key} and returns the group's members. */
  private Members<K> add(K key, NodeState node) {
    Members<K> group = byKey.computeIfAbsent(key, k -> new Members<>(k, new TreeMap<>()));
    TreeMap<Integer, NodeState> members = group.nodes();
    if (!members.isEmpty() && members.firstKey() > node.position()) {
      byFirst.remove(members.firstKey());
    }
    members.put(node.position(), node);
    if (members.firstKey() == node.position()) {
      track(members);
    }
    return group;
  }

  private void track(TreeMap<Integer, NodeState> members) {
    Map.Entry<Integer, NodeState> first = members.firstEntry();
    byFirst.put(
        first.getKey(),
        new Group(first.getValue(), Collections.unmodifiableCollection(members.values())));
  }
}
