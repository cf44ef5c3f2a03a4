package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Map;

/**
 * An owner of a pod as KAI's podgrouper reads it: its type, identity, labels and annotations.
 * {@code apiVersion} is written as in an owner reference: {@code group/version}, or {@code v1} for
 * the core group.
 */
public record OwnerMeta(
    String apiVersion,
    String kind,
    String name,
    String uid,
    ImmutableSortedMap<String, String> labels,
    ImmutableSortedMap<String, String> annotations) {
  public OwnerMeta {
    requireNonNull(apiVersion, "apiVersion is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(name, "name is null");
    requireNonNull(uid, "uid is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(annotations, "annotations is null");
  }

  public static OwnerMeta of(
      String apiVersion,
      String kind,
      String name,
      String uid,
      Map<String, String> labels,
      Map<String, String> annotations) {
    return new OwnerMeta(
        apiVersion,
        kind,
        name,
        uid,
        ImmutableSortedMap.copyOf(labels),
        ImmutableSortedMap.copyOf(annotations));
  }

  /** The API group; "" for the core group. */
  public String group() {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  public String version() {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
  }

  /** The same owner with other labels and annotations. */
  public OwnerMeta withMetadata(Map<String, String> labels, Map<String, String> annotations) {
    return of(apiVersion, kind, name, uid, labels, annotations);
  }
}
