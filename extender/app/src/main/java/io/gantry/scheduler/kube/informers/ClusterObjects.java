package io.gantry.scheduler.kube.informers;

import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiTopology;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import java.util.List;

/**
 * The cluster's objects a snapshot is built from, as client-java models: the informer caches of a
 * running scheduler ({@link ClusterInformers}), or the raw objects of a KAI snapshot file. Reads
 * only; the lists are in no particular order.
 */
public interface ClusterObjects {
  List<V1Pod> pods();

  /** The pod of this key ({@code namespace/name}), or null. */
  V1Pod pod(String key);

  List<V1Node> nodes();

  List<V1PriorityClass> priorityClasses();

  List<KaiQueue> queues();

  List<KaiPodGroup> podGroups();

  /** The PodGroup, or null. */
  KaiPodGroup podGroup(String namespace, String name);

  List<KaiTopology> topologies();

  /** The {@code resource.k8s.io/v1} objects. */
  DraObjects dra();
}
