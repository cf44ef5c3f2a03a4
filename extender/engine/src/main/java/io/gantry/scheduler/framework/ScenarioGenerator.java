package io.gantry.scheduler.framework;

import java.util.List;

/**
 * Turns an accumulated set of victims into concrete scenarios to simulate, in the order to try them
 * (KAI's scenario generator plugins, tried in plugin order). Each scenario is the potential victims
 * the generator picks, in the order they were popped; the search adds every recorded victim in
 * front. Picking a batch picks all of its tasks; an empty pick tries the recorded victims alone.
 */
public interface ScenarioGenerator extends Plugin {
  /** The key of this generator's budget ({@code NodeLocalGreedy}, {@code MultiNodeGang}). */
  String generatorName();

  List<List<TaskState>> scenarios(AccumulatedScenario base, SessionView session);
}
