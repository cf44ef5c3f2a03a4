package io.gantry.scheduler.kube.snapshot;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.Resources;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pod asks of its node, as kube-scheduler computes it: the sum of its containers' requests,
 * at least the largest init container's, plus the pod overhead. A container that sets a limit and
 * no request requests its limit (the API server's defaulting). Whole GPUs are the {@code
 * nvidia.com/gpu} extended resource.
 */
final class PodRequests {
  private PodRequests() {}

  static Resources of(V1PodSpec spec) {
    if (spec == null) {
      return Resources.ZERO;
    }
    Resources sum = Resources.ZERO;
    for (V1Container c : nonNull(spec.getContainers())) {
      sum = sum.plus(KubeQuantities.resources(requests(c.getResources())));
    }
    for (V1Container c : nonNull(spec.getInitContainers())) {
      sum = max(sum, KubeQuantities.resources(requests(c.getResources())));
    }
    if (spec.getOverhead() != null) {
      sum = sum.plus(KubeQuantities.resources(spec.getOverhead()));
    }
    return sum;
  }

  /** The whole GPUs a pod's containers ask for (0 when none). */
  static long wholeGpus(V1PodSpec spec) {
    return of(spec).gpus().wholeDevices();
  }

  private static Map<String, Quantity> requests(V1ResourceRequirements r) {
    if (r == null) {
      return Map.of();
    }
    Map<String, Quantity> out = new HashMap<>();
    if (r.getLimits() != null) {
      out.putAll(r.getLimits());
    }
    if (r.getRequests() != null) {
      out.putAll(r.getRequests());
    }
    return out;
  }

  private static Resources max(Resources a, Resources b) {
    Map<String, Long> extended = new HashMap<>(a.extended());
    b.extended().forEach((k, v) -> extended.merge(k, v, Math::max));
    return new Resources(
        Math.max(a.cpuMillis(), b.cpuMillis()),
        Math.max(a.memoryBytes(), b.memoryBytes()),
        GpuAmount.ofHundredths(Math.max(a.gpus().hundredths(), b.gpus().hundredths())),
        com.google.common.collect.ImmutableSortedMap.copyOf(extended));
  }

  private static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
