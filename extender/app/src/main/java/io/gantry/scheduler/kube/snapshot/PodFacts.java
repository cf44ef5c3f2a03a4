package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.gpusharing.json.GpuAllocationFormatException;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.kubemodel.kai.GpuSharingAnnotations;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the scheduler reads from one pod, converted once per pod resourceVersion: identity, where it
 * is, what it asks for, and KAI's labels and annotations. {@code problem} holds what makes the pod
 * unschedulable as written (a bad {@code gpu-fraction}, a bad toleration, a bad {@code
 * spec.resourceClaims} entry), naming the field.
 */
public record PodFacts(
    String key,
    String uid,
    String resourceVersion,
    String namespace,
    String name,
    String schedulerName,
    Optional<String> nodeName,
    String phase,
    Optional<Instant> deletionTimestamp,
    boolean gated,
    Instant createdAt,
    ImmutableSortedMap<String, String> labels,
    ImmutableSortedMap<String, String> annotations,
    Optional<String> podGroupName,
    String subGroup,
    Resources request,
    Optional<GpuSharingRequest> gpuSharing,
    PodPlacementRequirements placement,
    OptionalInt taskPriority,
    Optional<GpuAllocation> allocation,
    Optional<V1OwnerReference> controller,
    Optional<String> priorityClassName,
    ImmutableList<PodClaimRef> resourceClaims,
    Optional<String> problem) {

  public static final String POD_GROUP_ANNOTATION = "pod-group-name";
  public static final String SUBGROUP_LABEL = "kai.scheduler/subgroup-name";
  static final String TASK_PRIORITY_LABEL = "kai.scheduler/task-priority";
  static final String SKIP_PODGROUPER_ANNOTATION = "kai.scheduler/skip-podgrouper";

  public PodFacts {
    requireNonNull(key, "key is null");
    requireNonNull(request, "request is null");
    requireNonNull(resourceClaims, "resourceClaims is null");
  }

  public static String key(String namespace, String name) {
    return namespace + "/" + name;
  }

  public static PodFacts of(V1Pod pod) {
    V1ObjectMeta meta = pod.getMetadata();
    V1PodSpec spec = pod.getSpec() == null ? new V1PodSpec() : pod.getSpec();
    Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    Map<String, String> annotations =
        meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    Optional<String> problem = Optional.empty();
    Resources request = PodRequests.of(spec);
    Optional<GpuSharingRequest> sharing = Optional.empty();
    try {
      sharing = GpuSharingAnnotations.parse(annotations, request.gpus().wholeDevices());
    } catch (KaiObjectException e) {
      problem = Optional.of(e.getMessage());
    }
    PodPlacementRequirements placement = PodPlacementRequirements.none();
    try {
      placement = PodPlacement.of(spec);
    } catch (IllegalArgumentException e) {
      problem = problem.or(() -> Optional.of("spec: " + e.getMessage()));
    }
    ImmutableList<PodClaimRef> claims = ImmutableList.of();
    try {
      claims = PodClaims.of(pod);
    } catch (IllegalArgumentException e) {
      problem = problem.or(() -> Optional.of(e.getMessage()));
    }
    OptionalInt taskPriority = OptionalInt.empty();
    String tp = labels.get(TASK_PRIORITY_LABEL);
    if (tp != null) {
      try {
        taskPriority = OptionalInt.of(Integer.parseInt(tp.trim()));
      } catch (NumberFormatException e) {
        // KAI ignores a task priority that is not an integer
      }
    }
    Optional<V1OwnerReference> controller = Optional.empty();
    if (meta.getOwnerReferences() != null) {
      controller =
          meta.getOwnerReferences().stream()
              .filter(o -> Boolean.TRUE.equals(o.getController()))
              .findFirst()
              .or(() -> meta.getOwnerReferences().stream().findFirst());
    }
    String phase =
        pod.getStatus() == null || pod.getStatus().getPhase() == null
            ? "Pending"
            : pod.getStatus().getPhase();
    return new PodFacts(
        key(meta.getNamespace(), meta.getName()),
        meta.getUid() == null ? "" : meta.getUid(),
        meta.getResourceVersion() == null ? "" : meta.getResourceVersion(),
        meta.getNamespace(),
        meta.getName(),
        spec.getSchedulerName() == null ? "default-scheduler" : spec.getSchedulerName(),
        Optional.ofNullable(spec.getNodeName()).filter(n -> !n.isEmpty()),
        phase,
        Optional.ofNullable(meta.getDeletionTimestamp()).map(OffsetDateTime::toInstant),
        spec.getSchedulingGates() != null && !spec.getSchedulingGates().isEmpty(),
        meta.getCreationTimestamp() == null
            ? Instant.EPOCH
            : meta.getCreationTimestamp().toInstant(),
        ImmutableSortedMap.copyOf(labels),
        ImmutableSortedMap.copyOf(annotations),
        Optional.ofNullable(annotations.get(POD_GROUP_ANNOTATION)).filter(n -> !n.isEmpty()),
        Optional.ofNullable(labels.get(SUBGROUP_LABEL))
            .filter(n -> !n.isEmpty())
            .orElse(JobInfo.DEFAULT_POD_SET),
        request,
        sharing,
        placement,
        taskPriority,
        allocation(annotations.get(GpuAllocation.ANNOTATION)),
        controller,
        Optional.ofNullable(spec.getPriorityClassName()).filter(n -> !n.isEmpty()),
        claims,
        problem);
  }

  /**
   * The GPU allocation the binder wrote, if the pod carries one this build reads wholly; a foreign
   * or malformed value is left out, and the pod's GPU groups are then unknown.
   */
  private static Optional<GpuAllocation> allocation(String json) {
    if (json == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(GpuAllocationJson.read(json));
    } catch (GpuAllocationFormatException e) {
      return Optional.empty();
    }
  }

  public boolean terminal() {
    return phase.equals("Succeeded") || phase.equals("Failed");
  }

  /** Holds resources on its node: assigned there and not finished. */
  boolean occupiesNode() {
    return nodeName.isPresent() && !terminal();
  }

  boolean skipsPodGrouper() {
    return "true".equals(annotations.get(SKIP_PODGROUPER_ANNOTATION));
  }
}
