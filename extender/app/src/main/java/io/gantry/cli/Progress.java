package io.gantry.cli;

import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.sim.CycleObserver;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Progress of a long simulation on stderr: nothing for a run shorter than {@link #QUIET_NANOS},
 * then a line {@code FILE: cycle N of M} at most every {@link #EVERY_NANOS}, and one for the last
 * cycle. stdout stays the report alone. {@code gantry simulate} reports progress when it runs at a
 * terminal.
 */
final class Progress implements CycleObserver {
  static final long QUIET_NANOS = 2_000_000_000L;
  static final long EVERY_NANOS = 2_000_000_000L;

  private final Path file;
  private final PrintWriter err;
  private final LongSupplier nanoTime;
  private final long start;
  private long lastPrinted;
  private boolean printed;

  Progress(Path file, PrintWriter err, LongSupplier nanoTime) {
    this.file = file;
    this.err = err;
    this.nanoTime = nanoTime;
    this.start = nanoTime.getAsLong();
  }

  @Override
  public void cycleRun(int cycle, int cycles, CycleResult result) {
    long now = nanoTime.getAsLong();
    if (now - start < QUIET_NANOS) {
      return;
    }
    if (printed && now - lastPrinted < EVERY_NANOS && cycle < cycles) {
      return;
    }
    err.printf("%s: cycle %d of %d (%d s)%n", file, cycle, cycles, (now - start) / 1_000_000_000L);
    err.flush();
    printed = true;
    lastPrinted = now;
  }
}
