package io.gantry.scheduler.api.config;

import static java.util.Objects.requireNonNull;

/** Arguments of nodeplacement: the strategy for GPU tasks and for CPU-only tasks. */
public record Placement(PlacementStrategy gpu, PlacementStrategy cpu) {
  public static final Placement DEFAULTS =
      new Placement(PlacementStrategy.BINPACK, PlacementStrategy.BINPACK);

  public Placement {
    requireNonNull(gpu, "gpu is null");
    requireNonNull(cpu, "cpu is null");
  }
}
