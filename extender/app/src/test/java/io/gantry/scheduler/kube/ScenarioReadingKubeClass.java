package io.gantry.scheduler.kube;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.nio.file.Path;

/**
 * A live-scheduler class that reads a scenario through the simulator, which {@code LayeringTest}
 * forbids: the test checks that its rule names this class. Test code, so the rule over main code
 * never sees it.
 */
public final class ScenarioReadingKubeClass {
  private ScenarioReadingKubeClass() {}

  public static ScenarioSpec read(Path file) throws ScenarioException {
    return ScenarioLoader.load(file);
  }
}
