package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.selector.AffinitySpec;
import io.gantry.kubemodel.selector.TolerationSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A task entry (a pod); with {@code replicas} N it stands for N pods.
 *
 * @param resources requests by resource name: {@code cpu} in millicores, {@code memory} in bytes,
 *     anything else a whole count
 * @param node where the task is; present for Running, Bound, Releasing and StuckInReleasing tasks
 * @param podName the pod's name when it is not {@code <job>-<task>} (the pods of {@code workloads}
 *     keep the names their controllers give them)
 * @param field where the entry is in the file ({@code jobs[0].tasks[1]}, or the pod spec of a
 *     workload), for errors found after loading
 * @param fieldLines each key present in the YAML mapping and its line
 * @param resourceClaims the pod's DRA claims
 * @param gpuDevices the indices of the whole GPUs a placed task holds, on a node with {@code
 *     gpuTopology}; empty when not said
 */
public record TaskSpec(
    String name,
    int replicas,
    Optional<String> subGroup,
    ImmutableSortedMap<String, Long> resources,
    OptionalDouble gpuFraction,
    OptionalLong gpuMemoryMib,
    OptionalInt gpuFractionNumDevices,
    InitialTaskStatus status,
    Optional<String> node,
    List<String> gpuGroups,
    Optional<Duration> startedAt,
    OptionalInt taskPriority,
    ImmutableSortedMap<String, String> labels,
    ImmutableSortedMap<String, String> annotations,
    ImmutableSortedMap<String, String> nodeSelector,
    List<TolerationSpec> tolerations,
    Optional<AffinitySpec> affinity,
    Optional<String> podName,
    String field,
    int line,
    ImmutableSortedMap<String, Integer> fieldLines,
    List<PodClaimSpec> resourceClaims,
    List<Integer> gpuDevices) {
  public TaskSpec {
    requireNonNull(name, "name is null");
    requireNonNull(subGroup, "subGroup is null");
    requireNonNull(resources, "resources is null");
    requireNonNull(gpuFraction, "gpuFraction is null");
    requireNonNull(gpuMemoryMib, "gpuMemoryMib is null");
    requireNonNull(gpuFractionNumDevices, "gpuFractionNumDevices is null");
    requireNonNull(status, "status is null");
    requireNonNull(node, "node is null");
    gpuGroups = ImmutableList.copyOf(requireNonNull(gpuGroups, "gpuGroups is null"));
    requireNonNull(startedAt, "startedAt is null");
    requireNonNull(taskPriority, "taskPriority is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(annotations, "annotations is null");
    requireNonNull(nodeSelector, "nodeSelector is null");
    tolerations = ImmutableList.copyOf(requireNonNull(tolerations, "tolerations is null"));
    requireNonNull(affinity, "affinity is null");
    requireNonNull(podName, "podName is null");
    requireNonNull(field, "field is null");
    requireNonNull(fieldLines, "fieldLines is null");
    resourceClaims = ImmutableList.copyOf(requireNonNull(resourceClaims, "resourceClaims is null"));
    gpuDevices = ImmutableList.copyOf(requireNonNull(gpuDevices, "gpuDevices is null"));
  }

  /** The names of the pods this entry stands for: {@code name} alone, or {@code name-0 …}. */
  public List<String> expandedNames() {
    return Names.expand(name, replicas);
  }
}
