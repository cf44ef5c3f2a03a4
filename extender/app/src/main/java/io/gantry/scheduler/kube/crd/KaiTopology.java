package io.gantry.scheduler.kube.crd;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/** A {@code kai.scheduler/v1alpha1} Topology (cluster-scoped). */
public record KaiTopology(
    String apiVersion, String kind, V1ObjectMeta metadata, KaiTopologySpec spec)
    implements KubernetesObject {
  public static final String GROUP = "kai.scheduler";
  public static final String VERSION = "v1alpha1";
  public static final String PLURAL = "topologies";
  public static final String KIND = "Topology";

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
