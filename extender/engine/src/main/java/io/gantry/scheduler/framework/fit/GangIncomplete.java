package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

/**
 * A gang's pass stopped at a task no node took: {@code found} tasks of its PodSet had a place,
 * {@code required} (the PodSet's minMember) are needed.
 */
public record GangIncomplete(long found, long required, NoNodeFits nodes)
    implements PodSchedulingFailure {
  public GangIncomplete {
    requireNonNull(nodes, "nodes is null");
  }

  @Override
  public Kind kind() {
    return Kind.GANG_INCOMPLETE;
  }
}
