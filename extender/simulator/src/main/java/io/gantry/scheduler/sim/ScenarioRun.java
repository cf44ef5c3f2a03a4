package io.gantry.scheduler.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.report.ExpectationChecker;
import io.gantry.scheduler.sim.report.Mismatch;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.nio.file.Path;
import java.util.OptionalInt;

/** One scenario file loaded, simulated and checked against its {@code expect:} block. */
public record ScenarioRun(Path file, SimulationResult result, ImmutableList<Mismatch> mismatches) {
  public ScenarioRun {
    requireNonNull(file, "file is null");
    requireNonNull(result, "result is null");
    requireNonNull(mismatches, "mismatches is null");
  }

  /**
   * Throws {@link ScenarioException} (file, line, field) when the file is invalid or unsupported.
   */
  public static ScenarioRun of(Path file, OptionalInt cycles) throws ScenarioException {
    return of(file, ScenarioLoader.load(file), cycles);
  }

  /** Simulates {@code spec}, already loaded from {@code file}. */
  public static ScenarioRun of(Path file, ScenarioSpec spec, OptionalInt cycles)
      throws ScenarioException {
    return of(file, spec, cycles, CycleObserver.NONE);
  }

  /** Simulates {@code spec}, telling {@code observer} each cycle's result. */
  public static ScenarioRun of(
      Path file, ScenarioSpec spec, OptionalInt cycles, CycleObserver observer)
      throws ScenarioException {
    SimulationResult result = new Simulator().run(spec, cycles, observer);
    return new ScenarioRun(
        file, result, ImmutableList.copyOf(ExpectationChecker.check(spec.expect(), result)));
  }
}
