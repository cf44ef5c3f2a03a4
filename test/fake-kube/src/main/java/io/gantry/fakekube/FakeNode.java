package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Map;

/**
 * A node for {@link FakeKubelet#registerNode}: its name, capacity (also its allocatable), e.g.
 * {@code {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"}}, and labels.
 */
public record FakeNode(
    String name,
    ImmutableSortedMap<String, String> capacity,
    ImmutableSortedMap<String, String> labels) {
  public FakeNode {
    requireNonNull(name, "name is null");
    requireNonNull(capacity, "capacity is null");
    requireNonNull(labels, "labels is null");
  }

  public static FakeNode of(String name, Map<String, String> capacity, Map<String, String> labels) {
    return new FakeNode(
        name, ImmutableSortedMap.copyOf(capacity), ImmutableSortedMap.copyOf(labels));
  }

  public static FakeNode of(String name, Map<String, String> capacity) {
    return of(name, capacity, Map.of());
  }
}
