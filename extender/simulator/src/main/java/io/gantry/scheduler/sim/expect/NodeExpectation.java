package io.gantry.scheduler.sim.expect;

import static java.util.Objects.requireNonNull;

import java.util.OptionalInt;

/** What one node's whole idle and releasing GPU devices should number; empty is not checked. */
public record NodeExpectation(OptionalInt idleGpus, OptionalInt releasingGpus) {
  public NodeExpectation {
    requireNonNull(idleGpus, "idleGpus is null");
    requireNonNull(releasingGpus, "releasingGpus is null");
  }
}
