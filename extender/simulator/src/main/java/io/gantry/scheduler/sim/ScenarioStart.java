package io.gantry.scheduler.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.sim.spec.ScenarioSpec;

/**
 * A scenario's cluster as it stands at the start of the simulation (the jobs that have arrived by
 * then), and its engine configuration: for front doors that serve a scenario's cluster instead of
 * running it in simulated time (the HTTP extender's {@code --scenario}).
 */
public record ScenarioStart(ClusterSnapshot snapshot, SchedulerConfig config) {
  public ScenarioStart {
    requireNonNull(snapshot, "snapshot is null");
    requireNonNull(config, "config is null");
  }

  /** Compiles the scenario as {@code gantry simulate} does; throws naming the field it rejects. */
  public static ScenarioStart of(ScenarioSpec spec) throws ScenarioException {
    SimWorld world = ScenarioCompiler.compile(spec);
    return new ScenarioStart(
        Simulator.snapshot(world, world.start(), ImmutableSortedMap.of()), world.config());
  }
}
