package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import java.util.OptionalInt;

/** A node's whole-GPU counts after the run. */
public record NodeExpect(OptionalInt idleGpus, OptionalInt releasingGpus, int line) {
  public NodeExpect {
    requireNonNull(idleGpus, "idleGpus is null");
    requireNonNull(releasingGpus, "releasingGpus is null");
  }
}
