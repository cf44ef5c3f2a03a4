package io.gantry.scheduler.kube.reserve;

import io.gantry.gpusharing.GpuEnforcement;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.List;

/**
 * The fraction container's environment in reservation-pods mode, as KAI arranges it (§7 env
 * injection): the admission webhook gives the container {@code envFrom} a ConfigMap whose name it
 * records in annotation {@value SharedGpuPods#ENV_CONFIGMAP_ANNOTATION} (the UUID is not known
 * before the bind), and the binder writes that ConfigMap, owned by the pod, with the gpu-sharing
 * contract's variables ({@code NVIDIA_VISIBLE_DEVICES=<uuid>}, {@code GPU_PORTION}, {@code
 * RUNAI_NUM_OF_GPUS}, the memory limit and the MPS variables) before it binds. The kubelet reads it
 * when it starts the container.
 */
public final class GpuEnvironmentMap {
  private GpuEnvironmentMap() {}

  /** The ConfigMap holding {@code enforcement}'s environment for the pod. */
  static V1ConfigMap configMap(
      String namespace, String prefix, String podName, String podUid, GpuEnforcement enforcement) {
    return new V1ConfigMap()
        .apiVersion("v1")
        .kind("ConfigMap")
        .metadata(
            new V1ObjectMeta()
                .name(SharedGpuPods.envConfigMapName(prefix))
                .namespace(namespace)
                .ownerReferences(
                    List.of(
                        new V1OwnerReference()
                            .apiVersion("v1")
                            .kind("Pod")
                            .name(podName)
                            .uid(podUid))))
        .data(enforcement.env());
  }
}
