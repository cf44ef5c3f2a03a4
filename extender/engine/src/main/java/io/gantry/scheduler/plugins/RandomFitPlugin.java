package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.TaskState;

/**
 * The paper's random fit: any node where the task fits, chosen by a hash of the task's id and the
 * node's name, so the same snapshot always gives the same choice and no random state is kept.
 */
public final class RandomFitPlugin extends CostPlacementPlugin {
  public static final String NAME = "randomfit";

  public RandomFitPlugin(Placement placement) {
    super(placement, PlacementStrategy.RANDOM);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  double cost(TaskState task, NodeState node) {
    long h = task.id().hashCode() * 0x9E3779B97F4A7C15L + node.name().hashCode();
    // SplitMix64's finaliser: every input bit moves every output bit
    h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
    h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
    h ^= h >>> 31;
    return (h >>> 11) * 0x1.0p-53;
  }
}
