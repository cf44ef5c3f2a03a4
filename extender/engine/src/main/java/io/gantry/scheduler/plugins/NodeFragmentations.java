package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.NodeState;
import java.util.Arrays;

/**
 * What one session's mix sees of each node, kept by node position: its {@link
 * NodeFragmentation.Fit}, which reads only what the node is (GPU memory, labels, name) and is read
 * once, and its {@link NodeFragmentation}, read again only once the node's {@link
 * NodeState#version()} moved. The search costs the first node of every group for every task, and a
 * task changes one node. Single-threaded.
 */
final class NodeFragmentations {
  private final NodeFragmentation.Shapes shapes;
  private NodeFragmentation.Fit[] fits = new NodeFragmentation.Fit[0];
  private NodeFragmentation[] states = new NodeFragmentation[0];

  /** The node version each state was read at. */
  private long[] readAt = new long[0];

  NodeFragmentations(NodeFragmentation.Shapes shapes) {
    this.shapes = shapes;
  }

  /** The node's state now. */
  NodeFragmentation of(NodeState node) {
    int position = node.position();
    if (position >= fits.length) {
      int size = Math.max(position + 1, 2 * fits.length);
      fits = Arrays.copyOf(fits, size);
      states = Arrays.copyOf(states, size);
      readAt = Arrays.copyOf(readAt, size);
    }
    NodeFragmentation state = states[position];
    if (state != null && readAt[position] == node.version()) {
      return state;
    }
    if (fits[position] == null) {
      fits[position] = NodeFragmentation.fit(shapes, node);
    }
    state = NodeFragmentation.of(node, fits[position]);
    states[position] = state;
    readAt[position] = node.version();
    return state;
  }
}
