package io.gantry.scheduler.sim.report;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one task should end with; an empty field is not checked. {@code sharesGpuWith} names another
 * task ({@code <job name>/<task name>}) that must hold a shared GPU group in common with this one;
 * {@code messageContains} is a substring of the task's message.
 */
public record TaskExpectation(
    Optional<String> status,
    Optional<String> node,
    OptionalDouble gpuPortion,
    Optional<String> sharesGpuWith,
    Optional<String> messageContains) {
  public TaskExpectation {
    requireNonNull(status, "status is null");
    requireNonNull(node, "node is null");
    requireNonNull(gpuPortion, "gpuPortion is null");
    requireNonNull(sharesGpuWith, "sharesGpuWith is null");
    requireNonNull(messageContains, "messageContains is null");
  }
}
