package io.gantry.deviceagent.mps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.deviceagent.testing.FakeMpsControl;
import io.gantry.deviceagent.testing.FakeMpsControl.Call;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MPS daemons' lifecycle through the real process wrapper and a fake control program. */
class MpsDaemonsTest {
  private static final String GPU0 = "GPU-00000000-0000-0000-0000-000000000000";
  private static final String GPU1 = "GPU-00000001-0000-0000-0000-000000000001";
  private static final MpsLimits HALF = new MpsLimits(50, 40779);
  private static final MpsLimits QUARTER = new MpsLimits(25, 20389);

  @TempDir Path tmp;

  private FakeMpsControl fake;
  private Path pipes;
  private Path logs;
  private final TestClock clock = new TestClock();
  private MpsDaemons daemons;

  /** A clock the test moves. */
  private static final class TestClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    fake = FakeMpsControl.install(bin);
    pipes = tmp.resolve("pipes");
    logs = tmp.resolve("logs");
    daemons =
        new MpsDaemons(
            MpsControl.locate(
                MpsControl.DEFAULT_COMMAND, bin.toString(), pipes, logs, Duration.ofSeconds(10)),
            clock);
  }

  private Call call(String uuid, String args, String... stdin) {
    return new Call(
        uuid, args, pipes.resolve(uuid).toString(), logs.resolve(uuid).toString(), List.of(stdin));
  }

  private Call start(String uuid) {
    return call(uuid, "-d");
  }

  private Call limits(String uuid, MpsLimits limits) {
    return call(
        uuid,
        "",
        "set_default_active_thread_percentage " + limits.activeThreadPercentage(),
        "set_default_device_pinned_mem_limit 0 " + limits.pinnedMemoryMib() + "M");
  }

  private Call healthCheck(String uuid) {
    return call(uuid, "", "get_default_active_thread_percentage");
  }

  @Test
  void theFirstMpsAllocationStartsTheGpusDaemonWithItsLimits() throws Exception {
    daemons.ensure(GPU0, HALF);

    assertThat(fake.calls()).containsExactly(start(GPU0), limits(GPU0, HALF));
    assertThat(daemons.running()).containsExactly(GPU0);
    assertThat(daemons.pipeDirectory(GPU0)).isEqualTo(pipes.resolve(GPU0).toString());
  }

  @Test
  void aPodWithinTheLimitsChangesNothingAndALargerOneRaisesThem() throws Exception {
    daemons.ensure(GPU0, QUARTER);
    daemons.ensure(GPU0, QUARTER);
    daemons.ensure(GPU0, HALF);

    assertThat(fake.calls())
        .containsExactly(start(GPU0), limits(GPU0, QUARTER), limits(GPU0, HALF));
  }

  @Test
  void theLastMpsPodLeavingStopsTheDaemon() throws Exception {
    daemons.ensure(GPU0, HALF);
    daemons.ensure(GPU1, QUARTER);

    daemons.reconcile(Map.of(GPU1, QUARTER));

    assertThat(fake.calls().subList(4, fake.calls().size()))
        .containsExactly(call(GPU0, "", "quit"), healthCheck(GPU1));
    assertThat(daemons.running()).containsExactly(GPU1);
  }

  @Test
  void aDaemonThatDiedIsRestartedWithItsLimits() throws Exception {
    daemons.ensure(GPU0, HALF);
    FakeMpsControl.killDaemon(pipes.resolve(GPU0));

    daemons.reconcile(Map.of(GPU0, HALF));

    assertThat(fake.calls().subList(2, fake.calls().size()))
        .containsExactly(healthCheck(GPU0), start(GPU0), limits(GPU0, HALF));
    assertThat(daemons.running()).containsExactly(GPU0);
  }

  @Test
  void failedStartsAreRetriedWithBackoff() {
    fake.failStarts(true);
    assertThatThrownBy(() -> daemons.ensure(GPU0, HALF))
        .isInstanceOf(MpsException.class)
        .hasMessage(
            "nvidia-cuda-mps-control -d for GPU "
                + GPU0
                + " exited with status 1: cannot start the MPS control daemon");

    daemons.reconcile(Map.of(GPU0, HALF)); // within the first second: not tried
    clock.now = clock.now.plusSeconds(1);
    daemons.reconcile(Map.of(GPU0, HALF)); // tried, fails: next in 2 s
    clock.now = clock.now.plusSeconds(1);
    daemons.reconcile(Map.of(GPU0, HALF)); // not tried
    fake.failStarts(false);
    clock.now = clock.now.plusSeconds(1);
    daemons.reconcile(Map.of(GPU0, HALF)); // tried, works

    assertThat(fake.calls())
        .containsExactly(start(GPU0), start(GPU0), start(GPU0), limits(GPU0, HALF));
    assertThat(daemons.running()).containsExactly(GPU0);
  }

  @Test
  void stopAllQuitsEveryDaemon() throws Exception {
    daemons.ensure(GPU0, HALF);
    daemons.ensure(GPU1, HALF);

    daemons.stopAll();

    assertThat(fake.calls().subList(4, fake.calls().size()))
        .containsExactly(call(GPU0, "", "quit"), call(GPU1, "", "quit"));
    assertThat(daemons.running()).isEmpty();
  }

  @Test
  void aMissingControlProgramIsNamed() {
    assertThatThrownBy(
            () ->
                MpsControl.locate(
                    MpsControl.DEFAULT_COMMAND, tmp.toString(), pipes, logs, Duration.ofSeconds(1)))
        .isInstanceOf(MpsException.class)
        .hasMessage("nvidia-cuda-mps-control is not on PATH");
  }
}
