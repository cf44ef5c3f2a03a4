package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.NodeState;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;

/**
 * How many nodes of the cluster could take one task of each shape of the mix now (enough devices
 * with room for its portion, CPU, memory, labels it requires), and the mix weighted by it. Kept up
 * to date a node at a time: a placement marks its node, and the next read recounts only the marked
 * nodes. Single-threaded.
 */
final class ShapeScarcity {
  private final int shapes;
  private final NodeState[] nodeByPosition;

  /** Per node position: which shapes could land on it, as last counted. */
  private final boolean[][] hostsByNode;

  private final long[] hostingNodes;

  /** Per shape: the reciprocal of its hosting nodes (at least one), squared. */
  private final double[] perNodeSquared;

  private final BitSet stale = new BitSet();

  /** The node's state as the mix sees it (the plugin's cache). */
  private final Function<NodeState, NodeFragmentation> state;

  /**
   * Bumped when some shape's hosting nodes change: the weights made from a mix hold while this
   * does.
   */
  private long countsVersion;

  private ShapeMix.Weights lastLearnt;
  private long lastVersion = -1;
  private ShapeMix.Weights lastWeighted;

  ShapeScarcity(int shapes, List<NodeState> nodes, Function<NodeState, NodeFragmentation> state) {
    this.shapes = shapes;
    this.state = state;
    int size = 0;
    for (NodeState n : nodes) {
      size = Math.max(size, n.position() + 1);
    }
    this.nodeByPosition = new NodeState[size];
    this.hostsByNode = new boolean[size][];
    this.hostingNodes = new long[shapes];
    this.perNodeSquared = new double[shapes];
    for (int i = 0; i < shapes; i++) {
      perNodeSquared[i] = perNodeSquared(0);
    }
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

  /**
   * The learnt mix, each shape's weight divided by the square of the number of nodes that could
   * take one task of it now (at least one): losing one of three nodes that can still take an 8-GPU
   * task costs far more than losing one of three hundred that can take a tenth of a GPU. The square
   * stranded less than the plain count on the trace (docs/placement-quality.md). The same weights
   * again while neither the mix nor a count changed, so a task's device choice and the tasks of one
   * moment share them.
   */
  ShapeMix.Weights weigh(ShapeMix.Weights learnt) {
    recount();
    if (learnt == lastLearnt && countsVersion == lastVersion) {
      return lastWeighted;
    }
    double[] w = new double[learnt.shapes().size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = learnt.weight(i) * perNodeSquared[i];
    }
    lastLearnt = learnt;
    lastVersion = countsVersion;
    lastWeighted = learnt.reweighted(w);
    return lastWeighted;
  }

  /** The reciprocal squared by Math.pow, the rounding the documented figures were measured with. */
  private static double perNodeSquared(long hosting) {
    double perNode = 1 / Math.max((double) hosting, 1);
    return Math.pow(perNode, 2);
  }

  private void recount() {
    if (stale.isEmpty()) {
      return;
    }
    for (int p = stale.nextSetBit(0); p >= 0; p = stale.nextSetBit(p + 1)) {
      NodeFragmentation nodeState = state.apply(nodeByPosition[p]);
      boolean counted = hostsByNode[p] != null;
      if (!counted) {
        hostsByNode[p] = new boolean[shapes];
      }
      boolean[] hosts = hostsByNode[p];
      for (int i = 0; i < shapes; i++) {
        boolean now = nodeState.hosts(i);
        if (now != (counted && hosts[i])) {
          hostingNodes[i] += now ? 1 : -1;
          perNodeSquared[i] = perNodeSquared(hostingNodes[i]);
          countsVersion++;
        }
        hosts[i] = now;
      }
    }
    stale.clear();
  }
}
