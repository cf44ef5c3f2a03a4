package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.selector.TaintSpec;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A node entry; with {@code count} N it stands for N identical nodes.
 *
 * @param fieldLines each key present in the YAML mapping (as spelled there, e.g. {@code gpuMemory})
 *     and its line
 * @param gpuTopology the node's GPU interconnect domains: groups of device indices sharing a fast
 *     link (NVLink, NVSwitch); empty when the node names none
 */
public record NodeSpec(
    String name,
    int count,
    int gpus,
    OptionalLong gpuMemoryMib,
    boolean gpuMemorySynced,
    Optional<String> gpuProduct,
    long cpuMillis,
    long memoryBytes,
    int maxPods,
    ImmutableSortedMap<String, Long> extended,
    MigStrategy migStrategy,
    ImmutableSortedMap<String, String> labels,
    List<TaintSpec> taints,
    boolean unschedulable,
    boolean ready,
    int line,
    ImmutableSortedMap<String, Integer> fieldLines,
    ImmutableList<ImmutableList<Integer>> gpuTopology) {
  public NodeSpec {
    requireNonNull(name, "name is null");
    requireNonNull(gpuMemoryMib, "gpuMemoryMib is null");
    requireNonNull(gpuProduct, "gpuProduct is null");
    requireNonNull(extended, "extended is null");
    requireNonNull(migStrategy, "migStrategy is null");
    requireNonNull(labels, "labels is null");
    taints = ImmutableList.copyOf(requireNonNull(taints, "taints is null"));
    requireNonNull(fieldLines, "fieldLines is null");
    requireNonNull(gpuTopology, "gpuTopology is null");
  }

  /** The names of the nodes this entry stands for: {@code name} alone, or {@code name-0 …}. */
  public List<String> expandedNames() {
    return Names.expand(name, count);
  }
}
