package io.gantry.scheduler.kube.informers;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Cached pods by UID: an index of the pod informer's cache, which the informer keeps with every
 * add, update and delete, so that finding a pod by UID (the extender's {@code preempt} names its
 * victims by UID) does not walk every cached pod.
 */
final class PodUidIndex {
  static final String NAME = "uid";

  private PodUidIndex() {}

  /** The index to register on the pod informer before it starts. */
  static ImmutableMap<String, Function<V1Pod, List<String>>> indexers() {
    return ImmutableMap.of(NAME, PodUidIndex::uidOf);
  }

  /** A pod's UID, or none when it has none. */
  private static List<String> uidOf(V1Pod pod) {
    V1ObjectMeta meta = pod.getMetadata();
    return meta == null || meta.getUid() == null
        ? ImmutableList.of()
        : ImmutableList.of(meta.getUid());
  }

  /** The key ({@code namespace/name}) of the pod with this UID in {@code pods}, indexed by it. */
  static Optional<String> podKey(Indexer<V1Pod> pods, String uid) {
    List<V1Pod> found = pods.byIndex(NAME, uid);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    V1ObjectMeta meta = found.get(0).getMetadata();
    return Optional.of(PodFacts.key(meta.getNamespace(), meta.getName()));
  }
}
