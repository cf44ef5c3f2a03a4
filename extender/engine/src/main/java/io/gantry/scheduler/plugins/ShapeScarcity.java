package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.NodeState;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;

/**
 * How many nodes of the cluster could take one task of each shape of the mix now (enough devices
 * with room for its portion, CPU, memory, labels it requires). Kept up to date a node at a time: a
 * placement marks its node, and the next read recounts only the marked nodes. Single-threaded.
 */
final class ShapeScarcity {
  private final ImmutableList<DemandShape> shapes;
  private final NodeState[] nodeByPosition;

  /** Per node position: which shapes could land on it, as last counted. */
  private final boolean[][] hostsByNode;

  private final long[] hostingNodes;
  private final BitSet stale = new BitSet();

  /** What the mix sees of a node that does not change with its state (the plugin's cache). */
  private final Function<NodeState, NodeFragmentation.Fit> fit;

  ShapeScarcity(
      ImmutableList<DemandShape> shapes,
      List<NodeState> nodes,
      Function<NodeState, NodeFragmentation.Fit> fit) {
    this.shapes = shapes;
    this.fit = fit;
    int size = 0;
    for (NodeState n : nodes) {
      size = Math.max(size, n.position() + 1);
    }
    this.nodeByPosition = new NodeState[size];
    this.hostsByNode = new boolean[size][];
    this.hostingNodes = new long[shapes.size()];
    for (NodeState n : nodes) {
      nodeByPosition[n.position()] = n;
      stale.set(n.position());
    }
  }

  /** The node's resources changed: it is recounted on the next read. */
  void changed(NodeState node) {
    if (node.position() < nodeByPosition.length && nodeByPosition[node.position()] != null) {
      stale.set(node.position());
    }
  }

  /** The nodes where one task of shape {@code i} could land now. */
  long hostingNodes(int i) {
    recount();
    return hostingNodes[i];
  }

  private void recount() {
    if (stale.isEmpty()) {
      return;
    }
    for (int p = stale.nextSetBit(0); p >= 0; p = stale.nextSetBit(p + 1)) {
      NodeState n = nodeByPosition[p];
      boolean[] old = hostsByNode[p];
      NodeFragmentation state = NodeFragmentation.of(n);
      NodeFragmentation.Fit nodeFit = fit.apply(n);
      boolean[] now = new boolean[shapes.size()];
      for (int i = 0; i < now.length; i++) {
        now[i] = state.hosts(shapes.get(i), i, nodeFit);
        hostingNodes[i] += (now[i] ? 1 : 0) - (old != null && old[i] ? 1 : 0);
      }
      hostsByNode[p] = now;
    }
    stale.clear();
  }
}
