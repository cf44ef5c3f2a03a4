package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

/**
 * How the summed node score orders nodes for one task, in the {@link NodeIndex}'s terms: by the
 * tiers that apply (shared GPU fit, idle fit, the task's GPUs inside one interconnect domain,
 * CPU-only node, highest first), then fewest free {@code key} first, then node name.
 */
public record IndexOrder(
    Key key,
    boolean sharedGpuFitFirst,
    boolean idleFitFirst,
    boolean oneDomainFitFirst,
    boolean cpuOnlyNodesFirst) {

  /** The free resource bin-packing orders by. */
  public enum Key {
    WHOLE_GPUS,
    CPU
  }

  public IndexOrder {
    requireNonNull(key, "key is null");
  }
}
