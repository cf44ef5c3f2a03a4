package io.gantry.scheduler.api.config;

/**
 * How the engine searches for what it decides. Both strategies make exactly the same decisions
 * (bindings, pipelines, evictions, events and fit messages); they differ only in the work done.
 *
 * <p>{@link #INDEXED} is what every front door runs. {@link #BASELINE} exists for benchmarks and
 * equivalence tests only: the straightforward strategy that scores and sorts every node for every
 * task and recomputes every derived value when it is asked for, the yardstick {@code gantry bench}
 * measures the indexed engine against. This is the user-facing setting (bench presets, scenario
 * configuration); the engine's wiring maps it to the framework's node search that does the work
 * (the indexed or the exhaustive one), and no action or plugin reads it.
 */
public enum SearchStrategy {
  /** Node indexes per task shape, cached job requests, equivalent-task reuse of fit results. */
  INDEXED,
  /** Benchmarking baseline: score and sort every node per task; no index, no cache. */
  BASELINE
}
