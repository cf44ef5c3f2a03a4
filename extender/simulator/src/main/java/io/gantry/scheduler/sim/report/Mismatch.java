package io.gantry.scheduler.sim.report;

import static java.util.Objects.requireNonNull;

/**
 * One expectation that did not hold: {@code path} names it as in the file ({@code
 * expect.jobs.train-a.status}); {@code want} and {@code got} are already formatted for the reader.
 */
public record Mismatch(String path, String want, String got) {
  public Mismatch {
    requireNonNull(path, "path is null");
    requireNonNull(want, "want is null");
    requireNonNull(got, "got is null");
  }

  /** The line {@code gantry simulate --check} prints, e.g. {@code expect.x: want A, got B}. */
  @Override
  public String toString() {
    return path + ": want " + want + ", got " + got;
  }
}
