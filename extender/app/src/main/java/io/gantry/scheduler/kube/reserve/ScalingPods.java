package io.gantry.scheduler.kube.reserve;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAI's node-scale-adjuster (kai-reference §1.8): a cluster autoscaler sees only a fraction pod's
 * requests, which name no {@code nvidia.com/gpu}, so for the fraction pods that stay unschedulable
 * whole-GPU scaling pods stand in, {@code ceil(sum of fraction × devices)} of them (a memory
 * request counts 0.1 a device, KAI's {@code --gpu-memory-to-fraction-ratio}), in their own
 * namespace, named {@code gantry-scaling-<k>} so that a restarted scheduler finds them. They go
 * once no fraction pod waits. The scheduler's snapshot does not count them (like reservation pods):
 * once the autoscaler's node is there, the fraction pods are placed on it and the scaling pods
 * leave room for their reservation pods.
 */
public final class ScalingPods {
  private static final Logger LOG = LoggerFactory.getLogger(ScalingPods.class);

  static final String NAME_PREFIX = "gantry-scaling-";

  /** KAI's {@code --gpu-memory-to-fraction-ratio}: what a memory request counts, per device. */
  static final GpuAmount MEMORY_REQUEST_DEVICES = GpuAmount.ofHundredths(10);

  private final KubeWriter writer;
  private final GpuSharingSpec spec;

  public ScalingPods(KubeWriter writer, GpuSharingSpec spec) {
    this.writer = requireNonNull(writer, "writer is null");
    this.spec = requireNonNull(spec, "spec is null");
  }

  /** Whole GPUs that stand for these waiting fraction requests. */
  public static long devicesFor(List<GpuSharingRequest> waiting) {
    GpuAmount sum = GpuAmount.ZERO;
    for (GpuSharingRequest r : waiting) {
      GpuAmount perDevice =
          r.fraction().isPresent()
              ? GpuAmount.ofDevicesRoundedHalfUp(r.fraction().getAsDouble())
              : MEMORY_REQUEST_DEVICES;
      sum = sum.plus(perDevice.times(r.numDevices()));
    }
    return sum.wholeDevicesRoundedUp();
  }

  /** Whether a scaling pod of {@code spec}'s namespace is pending, by the API server's word. */
  static boolean anyPending(KubeWriter writer, GpuSharingSpec spec) throws ApiException {
    for (JsonNode pod :
        writer
            .listPods(
                spec.scalingNamespace(), SharedGpuPods.APP_LABEL + "=" + SharedGpuPods.SCALING_APP)
            .path("items")) {
      if (pod.at("/metadata/deletionTimestamp").asText("").isEmpty()
          && pod.at("/status/phase").asText("Pending").equals("Pending")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes the scaling pods match the fraction requests that wait: creates the missing ones, deletes
   * those beyond the need (all of them when nothing waits).
   */
  public void reconcile(List<GpuSharingRequest> waiting) {
    long wanted = devicesFor(waiting);
    try {
      Map<Integer, JsonNode> existing = new TreeMap<>();
      for (JsonNode pod :
          writer
              .listPods(
                  spec.scalingNamespace(),
                  SharedGpuPods.APP_LABEL + "=" + SharedGpuPods.SCALING_APP)
              .path("items")) {
        String name = pod.at("/metadata/name").asText();
        if (pod.at("/metadata/deletionTimestamp").asText("").isEmpty()
            && name.startsWith(NAME_PREFIX)) {
          try {
            existing.put(Integer.parseInt(name.substring(NAME_PREFIX.length())), pod);
          } catch (NumberFormatException e) {
            // not one of ours by name: left alone
          }
        }
      }
      for (Map.Entry<Integer, JsonNode> e : existing.entrySet()) {
        if (e.getKey() >= wanted) {
          JsonNode pod = e.getValue();
          writer.deletePod(
              spec.scalingNamespace(),
              pod.at("/metadata/name").asText(),
              pod.at("/metadata/uid").asText());
        }
      }
      for (int k = 0; k < wanted; k++) {
        if (!existing.containsKey(k)) {
          writer.createPod(pod(k));
        }
      }
    } catch (ApiException e) {
      LOG.warn(
          "scaling pods in {}: HTTP {} {}", spec.scalingNamespace(), e.getCode(), e.getMessage());
    }
  }

  private V1Pod pod(int k) {
    Map<String, Quantity> gpu = Map.of(ReservationPods.NVIDIA_GPU, new Quantity("1"));
    return new V1Pod()
        .apiVersion("v1")
        .kind("Pod")
        .metadata(
            new V1ObjectMeta()
                .name(NAME_PREFIX + k)
                .namespace(spec.scalingNamespace())
                .labels(Map.of(SharedGpuPods.APP_LABEL, SharedGpuPods.SCALING_APP)))
        .spec(
            new V1PodSpec()
                .terminationGracePeriodSeconds(0L)
                .addTolerationsItem(
                    new V1Toleration()
                        .key(ReservationPods.NVIDIA_GPU)
                        .operator("Exists")
                        .effect("NoSchedule"))
                .addContainersItem(
                    new V1Container()
                        .name("scale")
                        .image(spec.scalingImage())
                        .resources(new V1ResourceRequirements().requests(gpu).limits(gpu))));
  }
}
