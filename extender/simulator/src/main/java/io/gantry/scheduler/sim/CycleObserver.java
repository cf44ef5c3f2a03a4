package io.gantry.scheduler.sim;

import io.gantry.scheduler.api.result.CycleResult;

/**
 * Hears each cycle of a simulation as it ends: for a report of the run over time, or for progress.
 */
public interface CycleObserver {
  /** Hears nothing. */
  CycleObserver NONE = (cycle, cycles, result) -> {};

  /** Cycle {@code cycle} (from 1) of {@code cycles} ended with {@code result}. */
  void cycleRun(int cycle, int cycles, CycleResult result);

  /** This observer, then {@code next}. */
  default CycleObserver andThen(CycleObserver next) {
    return (cycle, cycles, result) -> {
      cycleRun(cycle, cycles, result);
      next.cycleRun(cycle, cycles, result);
    };
  }
}
