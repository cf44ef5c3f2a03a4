package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.SubGroupNode;

/**
 * How far a SubGroup is: {@code allocated} active-allocated pods (PodSet) or satisfied children
 * (SubGroupSet) against its {@code threshold} (minMember or required children).
 */
public record SubGroupProgress(
    SubGroupNode node, boolean satisfied, long allocated, long threshold) {
  public SubGroupProgress {
    requireNonNull(node, "node is null");
  }
}
