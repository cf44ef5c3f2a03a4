package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/**
 * The node cannot serve the task's DRA claims: {@code claim} ({@code <namespace>/<name>}) and why,
 * in words that do not name the node, so equal failures on many nodes are summarised once.
 */
public record ClaimUnallocatable(String claim, String why) implements NodeFitReason {
  public ClaimUnallocatable {
    requireNonNull(claim, "claim is null");
    requireNonNull(why, "why is null");
  }

  @Override
  public Kind kind() {
    return Kind.CLAIM_UNALLOCATABLE;
  }
}
