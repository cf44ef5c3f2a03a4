package io.gantry.scheduler.plugins;

/** KAI's node score tiers (kai-reference §6); summed across plugins. */
final class NodeScores {
  static final double GPU_SHARING = 1e4;
  static final double AVAILABILITY = 1e3;
  static final double RESOURCE_TYPE = 10;
  static final double MAX_HIGH_DENSITY = 9;

  private NodeScores() {}
}
