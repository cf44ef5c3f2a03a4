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

  /**
   * The API server leaves the type metadata out of each item of a list: an object read from one
   * gets this type's, as one read alone has it.
   */
  public KaiQueue {
    apiVersion = apiVersion == null ? GROUP + "/" + VERSION : apiVersion;
    kind = kind == null ? KIND : kind;
  }

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

  /**
   * For client-java's informers, which set the type metadata of list items through {@code setKind}
   * and {@code setApiVersion} and warn at start for a type without them: the constructor has set
   * this type's already, so nothing changes.
   */
  public void setKind(String kind) {}

  /** See {@link #setKind}. */
  public void setApiVersion(String apiVersion) {}
}
