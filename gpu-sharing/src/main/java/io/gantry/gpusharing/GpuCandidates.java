package io.gantry.gpusharing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The devices a shared task may use on a node (kai-reference §7): each existing group that accepts
 * its portion and compute mode, then one slot per whole device that is idle, then one per whole
 * device being released. A group is usable now when its idle portion holds the task.
 */
public final class GpuCandidates {
  private GpuCandidates() {}

  public static List<GpuCandidate> of(
      List<GpuGroupView> groups,
      int idleWholeGpus,
      int releasingWholeGpus,
      GpuAmount portion,
      ComputeMode mode) {
    List<GpuCandidate> out = new ArrayList<>();
    for (GpuGroupView g : groups) {
      if (g.accepts(portion, mode)) {
        out.add(
            new GpuCandidate(
                Optional.of(g.id()), g.usedPortion(), g.idlePortion().compareTo(portion) >= 0));
      }
    }
    for (int i = 0; i < idleWholeGpus; i++) {
      out.add(new GpuCandidate(Optional.empty(), GpuAmount.ZERO, true));
    }
    for (int i = 0; i < releasingWholeGpus; i++) {
      out.add(new GpuCandidate(Optional.empty(), GpuAmount.ZERO, false));
    }
    return out;
  }

  /** How many devices could hold the task now, without waiting for anything being released. */
  public static long usableNow(
      List<GpuGroupView> groups, int idleWholeGpus, GpuAmount portion, ComputeMode mode) {
    // an indexed loop, not a stream or an iterator: the node search asks this for every candidate
    // node of every task (a node's groups are an ImmutableList)
    long shared = 0;
    for (int i = 0; i < groups.size(); i++) {
      GpuGroupView g = groups.get(i);
      if (g.accepts(portion, mode) && g.idlePortion().compareTo(portion) >= 0) {
        shared++;
      }
    }
    return shared + idleWholeGpus;
  }
}
