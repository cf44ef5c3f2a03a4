package io.gantry.kubemodel.kai;

import java.util.Map;
import java.util.Optional;

/**
 * KAI's names for the pods that share GPUs next to NVIDIA's device plugin (kai-reference §1.7,
 * §1.8, §7), kept so that tools that know KAI's keep working, and Gantry's label of scaling pods.
 * Neither kind is a workload: the scheduler's snapshot counts neither against its node.
 */
public final class SharedGpuPods {
  /** The GPU group a reservation pod holds, and (on a fraction pod) the group it shares. */
  public static final String GPU_GROUP_LABEL = "runai-gpu-group";

  public static final String APP_LABEL = "app";

  /** The {@value #APP_LABEL} of reservation pods. */
  public static final String RESERVATION_APP = "kai-resource-reservation";

  /** Where a reservation pod publishes the UUID of the GPU the kubelet gave it. */
  public static final String UUID_ANNOTATION = "run.ai/reserve_for_gpu_index";

  /** The {@value #APP_LABEL} of scaling pods. */
  public static final String SCALING_APP = "gantry-scaling-pod";

  /**
   * KAI's annotation on a fraction pod naming the prefix of its environment ConfigMaps; the
   * admission webhook sets it, the binder writes the ConfigMap.
   */
  public static final String ENV_CONFIGMAP_ANNOTATION = "runai/shared-gpu-configmap";

  private SharedGpuPods() {}

  /** The environment ConfigMap of the fraction container (KAI's {@code <prefix>-<index>}). */
  public static String envConfigMapName(String prefix) {
    return prefix + "-0";
  }

  /**
   * The prefix of the pod's environment ConfigMaps ({@value #ENV_CONFIGMAP_ANNOTATION}); empty for
   * a pod the admission webhook never saw.
   */
  public static Optional<String> envConfigMapPrefix(Map<String, String> annotations) {
    return Optional.ofNullable(
            annotations == null ? null : annotations.get(ENV_CONFIGMAP_ANNOTATION))
        .filter(p -> !p.isEmpty());
  }

  /**
   * Why a fraction pod without {@value #ENV_CONFIGMAP_ANNOTATION} is neither scheduled nor bound in
   * reservation-pods mode, and what fixes it. Its containers' environment was fixed at creation and
   * reads no ConfigMap, so nothing could give it {@code NVIDIA_VISIBLE_DEVICES} of its shared GPU,
   * and a CUDA image's own {@code NVIDIA_VISIBLE_DEVICES=all} would show it every GPU of the node.
   */
  public static String noEnvironmentMessage() {
    return "the pod has no "
        + ENV_CONFIGMAP_ANNOTATION
        + " annotation: it was created before the gantry admission webhook, so its containers"
        + " cannot be confined to a shared GPU (NVIDIA_VISIBLE_DEVICES) and would see every GPU"
        + " of the node; recreate it";
  }

  /** Whether these are a reservation pod's labels. */
  public static boolean isReservation(Map<String, String> labels) {
    return labels != null
        && RESERVATION_APP.equals(labels.get(APP_LABEL))
        && labels.containsKey(GPU_GROUP_LABEL);
  }

  /** Whether these are a scaling pod's labels. */
  public static boolean isScaling(Map<String, String> labels) {
    return labels != null && SCALING_APP.equals(labels.get(APP_LABEL));
  }
}
