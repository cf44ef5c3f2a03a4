package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Map;
import java.util.Optional;

/**
 * The pod being grouped, as KAI's podgrouper reads it.
 *
 * @param priorityClassName {@code spec.priorityClassName}, when set and not empty
 * @param scheduled whether {@code spec.nodeName} is set (a LeaderWorkerSet with startup policy
 *     {@code LeaderReady} reads it)
 */
public record PodMeta(
    String namespace,
    String name,
    String uid,
    ImmutableSortedMap<String, String> labels,
    ImmutableSortedMap<String, String> annotations,
    Optional<String> priorityClassName,
    boolean scheduled) {
  public PodMeta {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    requireNonNull(uid, "uid is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(annotations, "annotations is null");
    requireNonNull(priorityClassName, "priorityClassName is null");
  }

  public static PodMeta of(
      String namespace,
      String name,
      String uid,
      Map<String, String> labels,
      Map<String, String> annotations,
      Optional<String> priorityClassName,
      boolean scheduled) {
    return new PodMeta(
        namespace,
        name,
        uid,
        ImmutableSortedMap.copyOf(labels),
        ImmutableSortedMap.copyOf(annotations),
        priorityClassName.filter(n -> !n.isEmpty()),
        scheduled);
  }

  /** The pod standing in as its own top owner (a pod without owners). */
  public OwnerMeta asOwner() {
    return new OwnerMeta("v1", "Pod", name, uid, labels, annotations);
  }
}
