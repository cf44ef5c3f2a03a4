package io.gantry.scheduler.plugins;

import static java.util.Objects.requireNonNull;

/** Arguments of nodeplacement: the strategy for GPU tasks and for CPU-only tasks. */
public record NodePlacementArgs(PlacementStrategy gpu, PlacementStrategy cpu) {
  public static final NodePlacementArgs DEFAULTS =
      new NodePlacementArgs(PlacementStrategy.BINPACK, PlacementStrategy.BINPACK);

  public NodePlacementArgs {
    requireNonNull(gpu, "gpu is null");
    requireNonNull(cpu, "cpu is null");
  }
}
