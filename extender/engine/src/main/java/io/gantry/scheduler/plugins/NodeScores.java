package io.gantry.scheduler.plugins;

/** KAI's node score tiers (kai-reference §6); summed across plugins. */
final class NodeScores {
  static final double GPU_SHARING = 1e4;
  static final double AVAILABILITY = 1e3;

  /**
   * Gantry's tier for a multi-GPU task that fits inside one GPU interconnect domain of the node
   * ({@link GpuDomainPlugin}): below availability (a task that can start now beats one that waits
   * for releasing capacity), above resource type and bin-packing (10 + 9), and below KAI's NUMA
   * tier (100) with everything under it (50 + 10 + 9 < 100), so every tier still outweighs all
   * below it.
   */
  static final double GPU_DOMAIN = 50;

  static final double RESOURCE_TYPE = 10;
  static final double MAX_HIGH_DENSITY = 9;

  private NodeScores() {}
}
