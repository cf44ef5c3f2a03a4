package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.model.NodeMigMode;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.placement.Taint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Everything about a node that deciding whether it can take a task reads, except its name and
 * labels: readiness, cordon, pod limit, free pod slots (0, 1, or 2 and more: the checks need one
 * for a task and two to open a shared GPU), taints, capacity free or releasing, whole devices idle
 * and releasing, its shared GPUs' allocated and releasing portions, its GPU memory, its MIG mode
 * and the legacy MIG pods on it (which KAI names in its reason). Nodes of one class give every task
 * whose checks do not read names or labels the same answer with the same reasons, so a failure is
 * explained by checking one node per class.
 */
public record NodeClass(
    boolean ready,
    boolean unschedulable,
    int maxPods,
    int podSlots,
    ImmutableList<Taint> taints,
    Resources idleOrReleasing,
    int idleWholeGpus,
    int releasingWholeGpus,
    ImmutableList<SharedGpuUse> sharedGpus,
    long gpuMemoryMib,
    boolean gpuMemorySynced,
    NodeMigMode migMode,
    ImmutableList<String> legacyMigPods) {

  /** One shared GPU's use, without its id (which differs between nodes). */
  public record SharedGpuUse(GpuAmount allocated, GpuAmount releasing) {
    public SharedGpuUse {
      requireNonNull(allocated, "allocated is null");
      requireNonNull(releasing, "releasing is null");
    }
  }

  private static final Comparator<SharedGpuUse> BY_USE =
      Comparator.comparing(SharedGpuUse::allocated).thenComparing(SharedGpuUse::releasing);

  public NodeClass {
    requireNonNull(taints, "taints is null");
    requireNonNull(idleOrReleasing, "idleOrReleasing is null");
    requireNonNull(sharedGpus, "sharedGpus is null");
    requireNonNull(migMode, "migMode is null");
    requireNonNull(legacyMigPods, "legacyMigPods is null");
  }

  /** The class of {@code node} as it is now. */
  public static NodeClass of(NodeState node) {
    List<SharedGpuUse> shared = new ArrayList<>();
    for (GpuGroupView g : node.gpuGroups()) {
      shared.add(new SharedGpuUse(g.allocatedPortion(), g.releasingPortion()));
    }
    shared.sort(BY_USE);
    return new NodeClass(
        node.info().ready(),
        node.info().unschedulable(),
        node.info().maxPods(),
        Math.max(0, Math.min(2, node.freePodSlots())),
        node.info().taints(),
        node.idleOrReleasing(),
        node.idleWholeGpus(),
        node.releasingWholeGpus(),
        ImmutableList.copyOf(shared),
        node.info().gpuMemoryMib(),
        node.info().gpuMemorySynced(),
        node.migMode(),
        ImmutableList.copyOf(node.legacyMigPods()));
  }
}
