package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Map;

/** The labels and annotations of a template inside a workload's spec (a pod or Job template). */
public record PodTemplateMeta(
    ImmutableSortedMap<String, String> labels, ImmutableSortedMap<String, String> annotations) {
  public static final PodTemplateMeta EMPTY =
      new PodTemplateMeta(ImmutableSortedMap.of(), ImmutableSortedMap.of());

  public PodTemplateMeta {
    requireNonNull(labels, "labels is null");
    requireNonNull(annotations, "annotations is null");
  }

  public static PodTemplateMeta of(Map<String, String> labels, Map<String, String> annotations) {
    return new PodTemplateMeta(
        ImmutableSortedMap.copyOf(labels), ImmutableSortedMap.copyOf(annotations));
  }
}
