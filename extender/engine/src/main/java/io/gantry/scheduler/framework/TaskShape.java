package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.util.Optional;

/**
 * Everything about a pending task that node checks read (KAI's scheduling signature): its
 * resources, its placement requirements, the labels and namespace inter-pod affinity matches, and
 * the queue and preemptibility capacity checks charge, its DRA claims, and whether it is a legacy
 * MIG pod. Two tasks of one shape get the same answer from every {@link NodePredicate} and {@link
 * CapacityPolicy} on the same session state, so a shape that fit nowhere fits nowhere until a task
 * moves.
 */
public record TaskShape(
    Resources request,
    Optional<GpuSharingRequest> gpuSharing,
    PodPlacementRequirements placement,
    ImmutableSortedMap<String, String> labels,
    String namespace,
    String queue,
    boolean preemptible,
    ImmutableList<PodClaim> resourceClaims,
    boolean legacyMig) {

  public TaskShape {
    requireNonNull(request, "request is null");
    requireNonNull(gpuSharing, "gpuSharing is null");
    requireNonNull(placement, "placement is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(queue, "queue is null");
    requireNonNull(resourceClaims, "resourceClaims is null");
  }

  public static TaskShape of(TaskState task) {
    return new TaskShape(
        task.info().request(),
        task.info().gpuSharing(),
        task.info().placement(),
        task.info().labels(),
        task.info().namespace(),
        task.job().info().queue(),
        task.job().info().preemptible(),
        task.info().resourceClaims(),
        task.info().legacyMig());
  }
}
