package io.gantry.scheduler.kube.informers;

import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.List;

/**
 * The {@code resource.k8s.io/v1} objects a snapshot is built from, kept as the JSON the API server
 * sent: the informer caches ({@link DraInformers}) or a KAI snapshot file's raw objects.
 */
public interface DraObjects {
  /** Every list has been read once; until then a snapshot holds no DRA objects. */
  boolean hasSynced();

  List<DynamicKubernetesObject> deviceClasses();

  List<DynamicKubernetesObject> slices();

  List<DynamicKubernetesObject> claims();

  List<DynamicKubernetesObject> templates();
}
