package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

/**
 * A queue after the cycle: its fair share as the cycle divided it (zero when no plugin divides
 * shares), and what its subtree holds: tasks allocated (Binding, Bound, Running), and the part of
 * that held by non-preemptible jobs. GPUs of shared tasks count as portion × devices.
 */
public record QueueOutcome(
    String name,
    ResourceAmounts fairShare,
    ResourceAmounts allocated,
    ResourceAmounts allocatedNonPreemptible) {
  public QueueOutcome {
    requireNonNull(name, "name is null");
    requireNonNull(fairShare, "fairShare is null");
    requireNonNull(allocated, "allocated is null");
    requireNonNull(allocatedNonPreemptible, "allocatedNonPreemptible is null");
  }
}
