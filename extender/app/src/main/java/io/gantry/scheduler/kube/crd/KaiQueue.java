package io.gantry.scheduler.kube.crd;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/** A {@code scheduling.run.ai/v2} Queue (cluster-scoped). */
public record KaiQueue(
    String apiVersion, String kind, V1ObjectMeta metadata, KaiQueueSpec spec, KaiQueueStatus status)
    implements KubernetesObject {
  public static final String GROUP = "scheduling.run.ai";
  public static final String VERSION = "v2";
  public static final String PLURAL = "queues";
  public static final String KIND = "Queue";

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
