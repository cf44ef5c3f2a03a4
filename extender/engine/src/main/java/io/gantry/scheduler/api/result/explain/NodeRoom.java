package io.gantry.scheduler.api.result.explain;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.ResourceVector;

/**
 * A node measured against one of the job's waiting tasks: what it has free (idle or releasing, GPU
 * devices, CPU millicores, memory bytes), how many such tasks that holds, and what it lacks for one
 * (resources short by an amount, or a reason the engine gave for this node).
 */
public record NodeRoom(
    String node, ResourceVector free, long tasksFit, ImmutableList<String> lacks) {
  public NodeRoom {
    requireNonNull(node, "node is null");
    requireNonNull(free, "free is null");
    requireNonNull(lacks, "lacks is null");
  }
}
