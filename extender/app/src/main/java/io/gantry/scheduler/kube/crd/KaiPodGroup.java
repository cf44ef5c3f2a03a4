package io.gantry.scheduler.kube.crd;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/** A {@code scheduling.run.ai/v2alpha2} PodGroup (namespaced). */
public record KaiPodGroup(
    String apiVersion,
    String kind,
    V1ObjectMeta metadata,
    KaiPodGroupSpec spec,
    KaiPodGroupStatus status)
    implements KubernetesObject {
  public static final String GROUP = "scheduling.run.ai";
  public static final String VERSION = "v2alpha2";
  public static final String PLURAL = "podgroups";
  public static final String KIND = "PodGroup";

  @Override
  public V1ObjectMeta getMetadata() {
    return metadata;
  }

  @Override
  public String getApiVersion() {
    return apiVersion;
  }

  @Override
  public String getKind() {
    return kind;
  }
}
