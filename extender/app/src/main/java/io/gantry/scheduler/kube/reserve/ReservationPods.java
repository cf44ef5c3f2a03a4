package io.gantry.scheduler.kube.reserve;

import com.google.common.hash.Hashing;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1EnvVarSource;
import io.kubernetes.client.openapi.models.V1ObjectFieldSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * KAI's reservation pods (kai-reference §1.7, §7) by KAI's names, so that tools that know KAI's
 * keep working: label {@value SharedGpuPods#GPU_GROUP_LABEL} with the GPU group, {@code app:
 * }{@value SharedGpuPods#RESERVATION_APP}, the UUID in annotation {@value
 * SharedGpuPods#UUID_ANNOTATION}, the name {@code gpu-reservation-<16 hex of
 * sha256("<node>/<group>")>}.
 */
public final class ReservationPods {
  /** Karpenter leaves a node holding a reservation alone. */
  static final String DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";

  static final String NVIDIA_GPU = "nvidia.com/gpu";

  private ReservationPods() {}

  /** The reservation pod's name for {@code group} on {@code node}. */
  public static String name(String node, String group) {
    String hash =
        Hashing.sha256().hashString(node + "/" + group, StandardCharsets.UTF_8).toString();
    return "gpu-reservation-" + hash.substring(0, 16);
  }

  /**
   * The reservation pod of {@code group} on {@code node}: bound to the node (no scheduler places
   * it), {@code nvidia.com/gpu: 1} requested and limited, running {@code gantry-device-agent
   * reserve} with its own name and namespace from the downward API, tolerating what the fraction
   * pod tolerates.
   */
  static V1Pod pod(GpuSharingSpec spec, String node, String group, List<V1Toleration> tolerations) {
    Map<String, Quantity> gpu = Map.of(NVIDIA_GPU, new Quantity("1"));
    V1PodSpec podSpec =
        new V1PodSpec()
            .nodeName(node)
            .serviceAccountName(spec.reservationServiceAccount())
            .tolerations(tolerations.isEmpty() ? null : tolerations)
            .terminationGracePeriodSeconds(5L)
            .addContainersItem(
                new V1Container()
                    .name("reserve")
                    .image(spec.reservationImage())
                    .args(List.of("reserve"))
                    .addEnvItem(downward("POD_NAME", "metadata.name"))
                    .addEnvItem(downward("POD_NAMESPACE", "metadata.namespace"))
                    .resources(new V1ResourceRequirements().requests(gpu).limits(gpu)));
    spec.runtimeClassName().ifPresent(podSpec::runtimeClassName);
    return new V1Pod()
        .apiVersion("v1")
        .kind("Pod")
        .metadata(
            new V1ObjectMeta()
                .name(name(node, group))
                .namespace(spec.reservationNamespace())
                .labels(
                    Map.of(
                        SharedGpuPods.APP_LABEL,
                        SharedGpuPods.RESERVATION_APP,
                        SharedGpuPods.GPU_GROUP_LABEL,
                        group))
                .annotations(Map.of(DO_NOT_DISRUPT, "true")))
        .spec(podSpec);
  }

  private static V1EnvVar downward(String name, String field) {
    return new V1EnvVar()
        .name(name)
        .valueFrom(new V1EnvVarSource().fieldRef(new V1ObjectFieldSelector().fieldPath(field)));
  }
}
