package io.gantry.scheduler.sim.expect;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one task should end with; an empty field is not checked.
 *
 * @param sharesGpuWith another task, as {@code <job name>/<task name>}, that must hold a shared GPU
 *     group in common with this one
 * @param messageContains a substring of the task's message
 * @param gpuDevices the indices of the whole GPUs the task holds, on a node with {@code
 *     gpuTopology}
 */
public record TaskExpectation(
    Optional<String> status,
    Optional<String> node,
    OptionalDouble gpuPortion,
    Optional<String> sharesGpuWith,
    Optional<String> messageContains,
    Optional<ImmutableList<Integer>> gpuDevices) {
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

  public TaskExpectation {
    requireNonNull(status, "status is null");
    requireNonNull(node, "node is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
    requireNonNull(sharesGpuWith, "sharesGpuWith is null");
    requireNonNull(messageContains, "messageContains is null");
    requireNonNull(gpuDevices, "gpuDevices is null");
  }

  /** An expectation that does not check GPU devices. */
  public TaskExpectation(
      Optional<String> status,
      Optional<String> node,
      OptionalDouble gpuPortion,
      Optional<String> sharesGpuWith,
      Optional<String> messageContains) {
    this(status, node, gpuPortion, sharesGpuWith, messageContains, Optional.empty());
  }
}
