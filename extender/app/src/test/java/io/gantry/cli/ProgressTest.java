package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.api.result.CycleResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {
  private static final long SECOND = 1_000_000_000L;
  private static final CycleResult ANY = null;

  private final AtomicLong now = new AtomicLong();
  private final StringWriter err = new StringWriter();
  private final Progress progress =
      new Progress(Path.of("big.yaml"), new PrintWriter(err), now::get);

  @Test
  void aRunShorterThanTwoSecondsPrintsNothing() {
    now.set(SECOND);
    progress.cycleRun(1, 3, ANY);
    now.set(SECOND + SECOND / 2);
    progress.cycleRun(3, 3, ANY);

    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aLongerRunPrintsEveryTwoSecondsAndTheLastCycle() {
    now.set(2 * SECOND);
    progress.cycleRun(1, 10, ANY);
    now.set(3 * SECOND);
    progress.cycleRun(2, 10, ANY);
    now.set(4 * SECOND);
    progress.cycleRun(3, 10, ANY);
    now.set(5 * SECOND);
    progress.cycleRun(10, 10, ANY);

    assertThat(err.toString().lines())
        .containsExactly(
            "big.yaml: cycle 1 of 10 (2 s)",
            "big.yaml: cycle 3 of 10 (4 s)",
            "big.yaml: cycle 10 of 10 (5 s)");
  }
}
