package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.grouping.PodTemplateMeta;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.selector.AffinitySpec;
import io.gantry.kubemodel.selector.TolerationSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A pod template of a workload, read into what a pod made from it asks the scheduler for.
 *
 * @param field the template ({@code metadata} and {@code spec})
 * @param resources the pod's requests as Kubernetes adds them up (CPU in millicores, memory in
 *     bytes, anything else a whole number)
 * @param gated whether the pod has scheduling gates
 * @param specField the template's {@code spec}, where errors found later point
 * @param specLines each key of {@code spec} and its line
 */
record ManifestPodTemplate(
    Field field,
    PodTemplateMeta meta,
    ImmutableSortedMap<String, Long> resources,
    OptionalDouble gpuFraction,
    OptionalLong gpuMemoryMib,
    OptionalInt gpuFractionNumDevices,
    ImmutableSortedMap<String, String> nodeSelector,
    List<TolerationSpec> tolerations,
    Optional<AffinitySpec> affinity,
    Optional<String> priorityClassName,
    boolean gated,
    Optional<Duration> terminationGracePeriod,
    OptionalInt taskPriority,
    Field specField,
    ImmutableSortedMap<String, Integer> specLines) {
  ManifestPodTemplate {
    requireNonNull(field, "field is null");
    requireNonNull(meta, "meta is null");
    requireNonNull(resources, "resources is null");
    requireNonNull(gpuFraction, "gpuFraction is null");
    requireNonNull(gpuMemoryMib, "gpuMemoryMib is null");
    requireNonNull(gpuFractionNumDevices, "gpuFractionNumDevices is null");
    requireNonNull(nodeSelector, "nodeSelector is null");
    tolerations = ImmutableList.copyOf(requireNonNull(tolerations, "tolerations is null"));
    requireNonNull(affinity, "affinity is null");
    requireNonNull(priorityClassName, "priorityClassName is null");
    requireNonNull(terminationGracePeriod, "terminationGracePeriod is null");
    requireNonNull(taskPriority, "taskPriority is null");
    requireNonNull(specField, "specField is null");
    requireNonNull(specLines, "specLines is null");
  }
}
