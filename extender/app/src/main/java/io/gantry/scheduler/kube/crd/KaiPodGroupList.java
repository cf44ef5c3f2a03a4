package io.gantry.scheduler.kube.crd;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import java.util.List;

/** A list of PodGroups, as the API server returns it. */
public record KaiPodGroupList(
    String apiVersion, String kind, V1ListMeta metadata, List<KaiPodGroup> items)
    implements KubernetesListObject {
  @Override
  public V1ListMeta getMetadata() {
    return metadata;
  }

  @Override
  public List<KaiPodGroup> getItems() {
    return items == null ? List.of() : items;
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
