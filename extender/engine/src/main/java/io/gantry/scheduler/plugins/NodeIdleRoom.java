package io.gantry.scheduler.plugins;

import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;

/**
 * What the cost-based placement strategies read of a node and a task, in hundredths of a GPU (the
 * engine's GPU precision): free GPU now, GPU capacity, and the GPU a task takes there.
 */
final class NodeIdleRoom {
  private NodeIdleRoom() {}

  static final int DEVICE = 100;

  /** GPU free now: whole idle devices plus what shared devices can still take now. */
  static long freeGpuHundredths(NodeState node) {
    long free = (long) node.idleWholeGpus() * DEVICE;
    for (GpuGroupView g : node.gpuGroups()) {
      free += g.idlePortion().hundredths();
    }
    return free;
  }

  static long gpuCapacityHundredths(NodeState node) {
    return (long) node.info().gpuCount() * DEVICE;
  }

  /** The GPU the task takes on the node: whole devices, or its portion on each shared device. */
  static long requestHundredths(TaskState task, NodeState node) {
    if (task.info().isShared()) {
      return GpuFit.portionOn(task, node).hundredths()
          * task.info().gpuSharing().orElseThrow().numDevices();
    }
    return task.info().request().gpus().hundredths();
  }

  /** {@code part / whole}, 0 when the node has none of the resource. */
  static double share(double part, double whole) {
    return whole > 0 ? part / whole : 0;
  }

  /** Whether a shared device of the node, already in use, can take the task's portion now. */
  static boolean sharedDeviceFits(TaskState task, NodeState node) {
    if (!task.info().isShared()) {
      return false;
    }
    long portion = GpuFit.portionOn(task, node).hundredths();
    for (GpuGroupView g : node.gpuGroups()) {
      if (g.allocatedPortion().isPositive() && g.idlePortion().hundredths() >= portion) {
        return true;
      }
    }
    return false;
  }
}
