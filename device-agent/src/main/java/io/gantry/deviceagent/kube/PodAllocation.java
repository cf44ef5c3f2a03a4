package io.gantry.deviceagent.kube;

import static java.util.Objects.requireNonNull;

import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.json.GpuAllocationFormatException;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Optional;

/**
 * A pod on this node with the allocation the scheduler wrote on it, and what it asks the kubelet
 * for: how many devices of one resource, summed over its containers.
 */
public record PodAllocation(
    PodRef pod, String phase, OffsetDateTime created, GpuAllocation allocation, V1Pod source) {
  public PodAllocation {
    requireNonNull(pod, "pod is null");
    requireNonNull(phase, "phase is null");
    requireNonNull(created, "created is null");
    requireNonNull(allocation, "allocation is null");
    requireNonNull(source, "source is null");
  }

  /** The pod's allocation; empty when it has none or one this build cannot read. */
  public static Optional<PodAllocation> of(V1Pod pod) {
    var meta = pod.getMetadata();
    if (meta == null || meta.getAnnotations() == null) {
      return Optional.empty();
    }
    String json = meta.getAnnotations().get(GpuAllocation.ANNOTATION);
    if (json == null) {
      return Optional.empty();
    }
    GpuAllocation allocation;
    try {
      allocation = GpuAllocationJson.read(json);
    } catch (GpuAllocationFormatException e) {
      return Optional.empty();
    }
    return Optional.of(
        new PodAllocation(
            new PodRef(meta.getNamespace(), meta.getName(), meta.getUid()),
            pod.getStatus() == null || pod.getStatus().getPhase() == null
                ? "Pending"
                : pod.getStatus().getPhase(),
            meta.getCreationTimestamp() == null ? OffsetDateTime.MIN : meta.getCreationTimestamp(),
            allocation,
            pod));
  }

  /** Devices of {@code resourceName} the pod's containers ask for (limits, else requests). */
  public long requested(String resourceName) {
    long total = 0;
    if (source.getSpec() == null) {
      return 0;
    }
    for (V1Container c : source.getSpec().getContainers()) {
      if (c.getResources() == null) {
        continue;
      }
      Map<String, Quantity> limits = c.getResources().getLimits();
      Map<String, Quantity> requests = c.getResources().getRequests();
      Quantity q =
          limits != null && limits.containsKey(resourceName)
              ? limits.get(resourceName)
              : requests == null ? null : requests.get(resourceName);
      if (q != null) {
        total += q.getNumber().longValue();
      }
    }
    return total;
  }
}
