package io.gantry.scheduler.api.result;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;

/**
 * A node's GPUs after the cycle, as the cluster will hold them: tasks the cycle only pipelined hold
 * nothing yet. {@code idleGpus} counts whole devices holding nothing (a device with any fraction is
 * not idle), {@code releasingGpus} whole devices being released.
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
