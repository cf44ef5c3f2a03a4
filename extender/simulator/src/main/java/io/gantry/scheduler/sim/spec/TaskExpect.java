package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a task should look like after the run.
 *
 * @param sharesGpuWith another task, as {@code job/task}, that is in the same GPU group
 */
public record TaskExpect(
    Optional<String> status,
    Optional<String> node,
    OptionalDouble gpuPortion,
    Optional<String> sharesGpuWith,
    Optional<String> messageContains,
    int line) {
  /** The statuses a task can have after a run. */
  public static final List<String> STATUSES =
      ImmutableList.of(
          "Pending",
          "Gated",
          "Binding",
          "Pipelined",
          "Running",
          "Releasing",
          "StuckInReleasing",
          "Succeeded",
          "Failed");

  public TaskExpect {
    requireNonNull(status, "status is null");
    requireNonNull(node, "node is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
    requireNonNull(sharesGpuWith, "sharesGpuWith is null");
    requireNonNull(messageContains, "messageContains is null");
  }
}
