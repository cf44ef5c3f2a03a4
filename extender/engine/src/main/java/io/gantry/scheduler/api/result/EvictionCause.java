package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Why a pod is evicted, as KAI annotates the PodGroup's {@code Evict} event (kai-reference §4.12):
 * the evicting action ({@code evictor-action-type}), the workload the eviction makes room for
 * ({@code evictor-pod-group-namespace}/{@code -name}; none for stale-gang eviction), and how many
 * pods the same decision evicts ({@code num-evicted-pods}).
 */
public record EvictionCause(String action, Optional<String> preemptorJobId, int evictedPods) {
  public EvictionCause {
    requireNonNull(action, "action is null");
    requireNonNull(preemptorJobId, "preemptorJobId is null");
    if (evictedPods < 1) {
      throw new IllegalArgumentException("evictedPods must be >= 1, got " + evictedPods);
    }
  }
}
