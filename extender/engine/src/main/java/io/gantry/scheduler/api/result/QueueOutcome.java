package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.ResourceVector;

/**
 * A queue after the cycle: its fair share as the cycle divided it (zero when no plugin divides
 * shares), and what its subtree holds: tasks allocated (Binding, Bound, Running), and the part of
 * that held by non-preemptible jobs. GPUs of shared tasks count as portion × devices. Vectors are
 * in GPU devices, CPU millicores and memory bytes.
 */
public record QueueOutcome(
    String name,
    ResourceVector fairShare,
    ResourceVector allocated,
    ResourceVector allocatedNonPreemptible) {
  public QueueOutcome {
    requireNonNull(name, "name is null");
    requireNonNull(fairShare, "fairShare is null");
    requireNonNull(allocated, "allocated is null");
    requireNonNull(allocatedNonPreemptible, "allocatedNonPreemptible is null");
  }
}
