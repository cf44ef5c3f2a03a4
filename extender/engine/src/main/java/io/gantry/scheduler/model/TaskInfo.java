package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.gpusharing.MigProfile;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * One pod of a job, as the snapshot saw it. {@code request} holds whole GPUs only; a shared-GPU
 * request lives in {@code gpuSharing}. {@code gpuPortion} is the per-device portion a running
 * shared task holds on {@code gpuGroups}. {@code name} is the task's name within its job, {@code
 * podName} the pod's name in its namespace. {@code resourceClaims} are the pod's DRA claims. {@code
 * gpuDevices} are the indices of the whole GPUs a placed task holds on a node that names its GPUs
 * ({@link GpuTopology}), when known; empty otherwise. {@code legacyMig} marks a pod that asks for
 * its MIG instance through a legacy {@code nvidia.com/mig-<profile>} annotation ({@link
 * #asLegacyMig}): KAI never schedules such a pod, and keeps new MIG pods off the node where one
 * runs.
 */
public record TaskInfo(
    String id,
    String name,
    String podName,
    String namespace,
    String jobId,
    String podSetName,
    Resources request,
    Optional<GpuSharingRequest> gpuSharing,
    TaskStatus status,
    Optional<String> nodeName,
    ImmutableList<String> gpuGroups,
    GpuAmount gpuPortion,
    OptionalInt taskPriority,
    ImmutableSortedMap<String, String> labels,
    PodPlacementRequirements placement,
    long creationOrder,
    ImmutableList<PodClaim> resourceClaims,
    ImmutableList<Integer> gpuDevices,
    boolean legacyMig) {

  public TaskInfo {
    requireNonNull(id, "id is null");
    requireNonNull(name, "name is null");
    requireNonNull(podName, "podName is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(jobId, "jobId is null");
    requireNonNull(podSetName, "podSetName is null");
    requireNonNull(request, "request is null");
    requireNonNull(gpuSharing, "gpuSharing is null");
    requireNonNull(status, "status is null");
    requireNonNull(nodeName, "nodeName is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
    requireNonNull(taskPriority, "taskPriority is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(placement, "placement is null");
    requireNonNull(resourceClaims, "resourceClaims is null");
    requireNonNull(gpuDevices, "gpuDevices is null");
  }

  /** A task that is not a legacy MIG pod. */
  public TaskInfo(
      String id,
      String name,
      String podName,
      String namespace,
      String jobId,
      String podSetName,
      Resources request,
      Optional<GpuSharingRequest> gpuSharing,
      TaskStatus status,
      Optional<String> nodeName,
      ImmutableList<String> gpuGroups,
      GpuAmount gpuPortion,
      OptionalInt taskPriority,
      ImmutableSortedMap<String, String> labels,
      PodPlacementRequirements placement,
      long creationOrder,
      ImmutableList<PodClaim> resourceClaims,
      ImmutableList<Integer> gpuDevices) {
    this(
        id,
        name,
        podName,
        namespace,
        jobId,
        podSetName,
        request,
        gpuSharing,
        status,
        nodeName,
        gpuGroups,
        gpuPortion,
        taskPriority,
        labels,
        placement,
        creationOrder,
        resourceClaims,
        gpuDevices,
        false);
  }

  /** A task without DRA claims whose whole GPUs, if any, are not known by index. */
  public TaskInfo(
      String id,
      String name,
      String podName,
      String namespace,
      String jobId,
      String podSetName,
      Resources request,
      Optional<GpuSharingRequest> gpuSharing,
      TaskStatus status,
      Optional<String> nodeName,
      ImmutableList<String> gpuGroups,
      GpuAmount gpuPortion,
      OptionalInt taskPriority,
      ImmutableSortedMap<String, String> labels,
      PodPlacementRequirements placement,
      long creationOrder) {
    this(
        id,
        name,
        podName,
        namespace,
        jobId,
        podSetName,
        request,
        gpuSharing,
        status,
        nodeName,
        gpuGroups,
        gpuPortion,
        taskPriority,
        labels,
        placement,
        creationOrder,
        ImmutableList.of(),
        ImmutableList.of());
  }

  public boolean isShared() {
    return gpuSharing.isPresent();
  }

  /** A task asks for GPUs of any kind (whole, shared or MIG): it is scheduled as a GPU task. */
  public boolean requestsGpu() {
    return request.gpus().isPositive() || gpuSharing.isPresent() || requestsMig();
  }

  /** This task with another status and place: node, GPU groups and GPU portion. */
  public TaskInfo placedAs(
      TaskStatus status,
      Optional<String> node,
      ImmutableList<String> gpuGroups,
      GpuAmount portion) {
    return placedAs(status, node, gpuGroups, portion, ImmutableList.of());
  }

  /** The same, holding the whole GPUs {@code devices} by index. */
  public TaskInfo placedAs(
      TaskStatus status,
      Optional<String> node,
      ImmutableList<String> gpuGroups,
      GpuAmount portion,
      ImmutableList<Integer> devices) {
    return new TaskInfo(
        id,
        name,
        podName,
        namespace,
        jobId,
        podSetName,
        request,
        gpuSharing,
        status,
        node,
        gpuGroups,
        portion,
        taskPriority,
        labels,
        placement,
        creationOrder,
        resourceClaims,
        devices,
        legacyMig);
  }

  /** This task with its pod's DRA claims. */
  public TaskInfo withResourceClaims(ImmutableList<PodClaim> claims) {
    return new TaskInfo(
        id,
        name,
        podName,
        namespace,
        jobId,
        podSetName,
        request,
        gpuSharing,
        status,
        nodeName,
        gpuGroups,
        gpuPortion,
        taskPriority,
        labels,
        placement,
        creationOrder,
        claims,
        gpuDevices,
        legacyMig);
  }

  /**
   * This task as KAI reads a pod with the legacy annotation {@code migResource: count}: its GPU
   * request is that many instances of the MIG profile and nothing else (no whole or shared GPUs, no
   * other MIG profile), and it is a legacy MIG pod.
   */
  public TaskInfo asLegacyMig(String migResource, long count) {
    TreeMap<String, Long> extended = new TreeMap<>();
    request
        .extended()
        .forEach(
            (k, v) -> {
              if (!MigProfile.isMigResource(k)) {
                extended.put(k, v);
              }
            });
    extended.put(migResource, count);
    Resources migRequest =
        new Resources(
            request.cpuMillis(),
            request.memoryBytes(),
            GpuAmount.ZERO,
            ImmutableSortedMap.copyOf(extended));
    return new TaskInfo(
        id,
        name,
        podName,
        namespace,
        jobId,
        podSetName,
        migRequest,
        Optional.empty(),
        status,
        nodeName,
        gpuGroups,
        gpuPortion,
        taskPriority,
        labels,
        placement,
        creationOrder,
        resourceClaims,
        gpuDevices,
        true);
  }

  /** The task asks for MIG instances ({@code nvidia.com/mig-<profile>}): KAI's MIG candidate. */
  public boolean requestsMig() {
    // a loop, not a stream: predicates and node scores ask this for every candidate node
    for (String resource : request.extended().keySet()) {
      if (MigProfile.isMigResource(resource)) {
        return true;
      }
    }
    return false;
  }
}
