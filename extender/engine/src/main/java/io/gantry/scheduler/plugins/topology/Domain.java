package io.gantry.scheduler.plugins.topology;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.NodeState;

/**
 * One domain of a topology level: its {@code path} holds its own id and those of its ancestors,
 * widest level first (the id is the last entry), its {@code nodes} the nodes in it, by name.
 */
record Domain(ImmutableList<String> path, ImmutableList<NodeState> nodes) {
  Domain {
    requireNonNull(path, "path is null");
    requireNonNull(nodes, "nodes is null");
  }

  String id() {
    return path.get(path.size() - 1);
  }

  int level() {
    return path.size() - 1;
  }

  /** The id of this domain's ancestor (or itself) at {@code level}. */
  String idAt(int level) {
    return path.get(level);
  }
}
