package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;

/**
 * A node's GPUs after the cycle, as the cluster will hold them: tasks the cycle only pipelined hold
 * nothing yet. {@code idleGpus} counts whole devices holding nothing (a device with any fraction is
 * not idle), GPUs a DRA driver publishes for this node that no claim of its pods holds among them;
 * {@code releasingGpus} whole devices being released; {@code usedGpus} the rest of the node's
 * device-plugin GPUs and the DRA GPUs its pods' claims hold.
 */
public record NodeOutcome(
    String name,
    int idleGpus,
    int releasingGpus,
    int usedGpus,
    ImmutableList<SharedGpuUse> sharedGpuGroups) {
  public NodeOutcome {
    requireNonNull(name, "name is null");
    requireNonNull(sharedGpuGroups, "sharedGpuGroups is null");
  }

  /** One shared device: its group id and the portion its tasks hold (allocated and releasing). */
  public record SharedGpuUse(String groupId, GpuAmount usedPortion) {
    public SharedGpuUse {
      requireNonNull(groupId, "groupId is null");
      requireNonNull(usedPortion, "usedPortion is null");
    }
  }
}
