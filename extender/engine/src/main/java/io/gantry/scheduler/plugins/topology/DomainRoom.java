package io.gantry.scheduler.plugins.topology;

import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import java.util.ArrayList;
import java.util.List;

/**
 * The room a set of nodes offers a group (kai-reference §9 (c)): free resources (idle plus
 * releasing) summed, and the pods of the group's largest request that fit node by node (each node's
 * free resources divided by that request, rounded down, the smallest over resources, and no more
 * than its free pod slots).
 */
record DomainRoom(ResourceVector free, long allocatablePods) {
  /** GPU amounts carry two decimals; anything finer is rounding noise. */
  private static final double EPSILON = 1e-6;

  static DomainRoom of(List<NodeState> nodes, GroupRequest request) {
    ResourceVector free = ResourceVector.ZERO;
    long pods = 0;
    for (NodeState node : nodes) {
      ResourceVector nodeFree = ResourceVector.of(node.idleOrReleasing());
      free = free.plus(nodeFree);
      long fit = Math.max(0, node.freePodSlots());
      for (ResourceKind kind : ResourceKind.values()) {
        double perPod = request.maxPerPod().get(kind);
        if (perPod > 0) {
          fit = Math.min(fit, (long) Math.floor(nodeFree.get(kind) / perPod + EPSILON));
        }
      }
      pods += fit;
    }
    return new DomainRoom(free, pods);
  }

  /** Whether the group's pods fit here: every resource in total and, when alike, pod by pod. */
  boolean fits(GroupRequest request) {
    return shortOf(request).isEmpty()
        && (!request.homogeneous() || allocatablePods >= request.pods());
  }

  /** The resources whose free amount is below the group's total here, in resource order. */
  List<ResourceKind> shortOf(GroupRequest request) {
    List<ResourceKind> out = new ArrayList<>();
    for (ResourceKind kind : ResourceKind.values()) {
      if (request.total().get(kind) > free.get(kind) + EPSILON) {
        out.add(kind);
      }
    }
    return out;
  }

  /**
   * How full the group would leave this domain: the largest share of a free resource it asks for (0
   * when it asks for nothing); larger is fuller.
   */
  double fillRatio(GroupRequest request) {
    double ratio = 0;
    for (ResourceKind kind : ResourceKind.values()) {
      double asked = request.total().get(kind);
      if (asked > 0) {
        double available = free.get(kind);
        ratio = Math.max(ratio, available <= 0 ? Double.MAX_VALUE : asked / available);
      }
    }
    return ratio;
  }
}
