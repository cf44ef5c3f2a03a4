package io.gantry.scheduler.plugins;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.DeviceSource;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.framework.GroupedScorer;
import io.gantry.scheduler.framework.NodeGrouping;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.model.NodeMigMode;
import io.gantry.scheduler.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Everything a node's placement score reads of it for {@link GroupedScorer}: idle resources, whole
 * devices idle and releasing, GPU count, memory and MIG mode, free GPUs in one interconnect domain,
 * every shared GPU's use without its id, and the values of the labels some pod's node selector or
 * required affinity names; the node's name only when some pod selects nodes by name. Otherwise
 * nodes of equal state share a key, whichever they are.
 *
 * <p>Idle CPU and memory are read up to a ceiling: twice the most any pod of the session asks for.
 * The score only compares them with a pod's request, before and after placing one, so above the
 * ceiling every comparison comes out the same, and nodes that differ only in plenty of idle CPU
 * share a key.
 */
record NodeScoreKey(
    long idleCpuMillisUpToCeiling,
    long idleMemoryBytesUpToCeiling,
    GpuAmount idleGpus,
    ImmutableSortedMap<String, Long> idleExtended,
    int idleWholeGpus,
    int releasingWholeGpus,
    int gpuCount,
    long gpuMemoryMib,
    boolean gpuMemorySynced,
    NodeMigMode migMode,
    int freeGpusInOneDomain,
    ImmutableList<SharedGpu> sharedGpus,
    ImmutableSortedMap<String, String> labels,
    String name) {

  /** One shared GPU's use, without its id (which differs between nodes). */
  record SharedGpu(
      GpuAmount allocated,
      GpuAmount releasing,
      ComputeMode computeMode,
      DeviceSource source,
      GpuAmount pipelined) {}

  private static final Comparator<SharedGpu> BY_USE =
      Comparator.comparing(SharedGpu::allocated)
          .thenComparing(SharedGpu::releasing)
          .thenComparing(SharedGpu::computeMode)
          .thenComparing(SharedGpu::source)
          .thenComparing(SharedGpu::pipelined);

  NodeScoreKey {
    requireNonNull(idleGpus, "idleGpus is null");
    requireNonNull(idleExtended, "idleExtended is null");
    requireNonNull(migMode, "migMode is null");
    requireNonNull(sharedGpus, "sharedGpus is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(name, "name is null");
  }

  /** What the grouping reads of nodes, from what the session's pods ask. */
  record Reading(
      ImmutableSortedSet<String> labelKeys,
      boolean byName,
      long cpuCeilingMillis,
      long memoryCeilingBytes) {
    Reading {
      requireNonNull(labelKeys, "labelKeys is null");
    }

    /** Everything of every node: for a grouping made before the session's pods are known. */
    static Reading everything() {
      return new Reading(ImmutableSortedSet.of(), true, Long.MAX_VALUE, Long.MAX_VALUE);
    }
  }

  /** The grouping by this key, reading nodes as {@code reading} says. */
  static NodeGrouping<NodeScoreKey> grouping(Reading reading) {
    return node -> of(node, reading);
  }

  private static NodeScoreKey of(NodeState node, Reading reading) {
    List<SharedGpu> shared = new ArrayList<>(node.gpuGroups().size());
    for (GpuGroupView g : node.gpuGroups()) {
      shared.add(
          new SharedGpu(
              g.allocatedPortion(),
              g.releasingPortion(),
              g.computeMode(),
              g.source(),
              g.pipelinedPortion()));
    }
    shared.sort(BY_USE);
    ImmutableSortedMap.Builder<String, String> labels = ImmutableSortedMap.naturalOrder();
    Map<String, String> nodeLabels = node.info().labels();
    for (String key : reading.labelKeys()) {
      String value = nodeLabels.get(key);
      if (value != null) {
        labels.put(key, value);
      }
    }
    Resources idle = node.idle();
    return new NodeScoreKey(
        Math.min(idle.cpuMillis(), reading.cpuCeilingMillis()),
        Math.min(idle.memoryBytes(), reading.memoryCeilingBytes()),
        idle.gpus(),
        idle.extended(),
        node.idleWholeGpus(),
        node.releasingWholeGpus(),
        node.info().gpuCount(),
        node.info().gpuMemoryMib(),
        node.info().gpuMemorySynced(),
        node.migMode(),
        node.freeGpusInOneDomain(),
        ImmutableList.copyOf(shared),
        labels.buildOrThrow(),
        reading.byName() ? node.name() : "");
  }
}
