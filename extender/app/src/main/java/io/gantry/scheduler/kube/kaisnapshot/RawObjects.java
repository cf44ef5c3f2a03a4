package io.gantry.scheduler.kube.kaisnapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiTopology;
import io.gantry.scheduler.kube.informers.ClusterObjects;
import io.gantry.scheduler.kube.informers.DraObjects;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * The raw objects of a KAI snapshot file ({@code rawObjects}), read into the client-java models the
 * informer caches hold, so that the scheduler's own snapshot code reads them. Every list has been
 * read (DRA included): a snapshot file is one consistent listing.
 */
public record RawObjects(
    ImmutableList<V1Pod> pods,
    ImmutableList<V1Node> nodes,
    ImmutableList<V1PriorityClass> priorityClasses,
    ImmutableList<KaiQueue> queues,
    ImmutableList<KaiPodGroup> podGroups,
    ImmutableList<KaiTopology> topologies,
    Dra dra)
    implements ClusterObjects {

  /** The {@code resource.k8s.io} lists. */
  public record Dra(
      ImmutableList<DynamicKubernetesObject> deviceClasses,
      ImmutableList<DynamicKubernetesObject> slices,
      ImmutableList<DynamicKubernetesObject> claims,
      ImmutableList<DynamicKubernetesObject> templates)
      implements DraObjects {
    public static final Dra NONE =
        new Dra(ImmutableList.of(), ImmutableList.of(), ImmutableList.of(), ImmutableList.of());

    public Dra {
      requireNonNull(deviceClasses, "deviceClasses is null");
      requireNonNull(slices, "slices is null");
      requireNonNull(claims, "claims is null");
      requireNonNull(templates, "templates is null");
    }

    @Override
    public boolean hasSynced() {
      return true;
    }

    /** Whether there is no DRA object at all. */
    public boolean isEmpty() {
      return deviceClasses.isEmpty() && slices.isEmpty() && claims.isEmpty() && templates.isEmpty();
    }
  }

  public RawObjects {
    requireNonNull(pods, "pods is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(priorityClasses, "priorityClasses is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(podGroups, "podGroups is null");
    requireNonNull(topologies, "topologies is null");
    requireNonNull(dra, "dra is null");
  }

  /** The same objects with {@code newPods} in place of the pods. */
  public RawObjects withPods(ImmutableList<V1Pod> newPods) {
    return new RawObjects(newPods, nodes, priorityClasses, queues, podGroups, topologies, dra);
  }

  /** The same objects without any DRA object. */
  public RawObjects withoutDra() {
    return new RawObjects(pods, nodes, priorityClasses, queues, podGroups, topologies, Dra.NONE);
  }

  @Override
  public V1Pod pod(String key) {
    return podsByKey().get(key);
  }

  @Override
  public KaiPodGroup podGroup(String namespace, String name) {
    for (KaiPodGroup pg : podGroups) {
      if (namespace.equals(pg.getMetadata().getNamespace())
          && name.equals(pg.getMetadata().getName())) {
        return pg;
      }
    }
    return null;
  }

  private ImmutableMap<String, V1Pod> podsByKey() {
    ImmutableMap.Builder<String, V1Pod> out = ImmutableMap.builder();
    for (V1Pod p : pods) {
      out.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p);
    }
    return out.buildKeepingLast();
  }
}
