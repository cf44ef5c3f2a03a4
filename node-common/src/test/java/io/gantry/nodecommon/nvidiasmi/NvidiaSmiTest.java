package io.gantry.nodecommon.nvidiasmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException.Reason;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvidiaSmiTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @TempDir Path tmp;

  @Test
  void runsTheExecutableFoundOnPathAndReturnsItsOutput() throws Exception {
    FakeNvidiaSmi.in(tmp).answer("-q -x", Fixtures.read(Fixtures.TESLA_T4)).install();

    NvidiaSmi smi = NvidiaSmi.locate("nvidia-smi", "/nonexistent:" + tmp, TIMEOUT);

    assertThat(smi.executable()).isEqualTo(tmp.resolve("nvidia-smi"));
    assertThat(smi.run("-q", "-x")).isEqualTo(Fixtures.read(Fixtures.TESLA_T4));
  }

  @Test
  void notOnPathMeansNoGpu() {
    assertThatThrownBy(() -> NvidiaSmi.locate("nvidia-smi", tmp.toString(), TIMEOUT))
        .isInstanceOfSatisfying(
            NvidiaSmiException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_FOUND))
        .hasMessage("no NVIDIA GPU found: nvidia-smi is not on PATH");
  }

  @Test
  void aConfiguredPathThatIsNotThereIsNamed() {
    String missing = tmp.resolve("opt/nvidia-smi").toString();

    assertThatThrownBy(() -> NvidiaSmi.locate(missing, "", TIMEOUT))
        .hasMessage("no NVIDIA GPU found: " + missing + " is not an executable file");
  }

  @Test
  void aNonZeroExitCarriesStderr() throws Exception {
    FakeNvidiaSmi.in(tmp).fail("topo -m", 3, "partial", "topo is not supported here\n").install();
    NvidiaSmi smi = NvidiaSmi.locate(tmp.resolve("nvidia-smi").toString(), "", TIMEOUT);

    assertThatThrownBy(() -> smi.run("topo", "-m"))
        .isInstanceOfSatisfying(
            NvidiaSmiException.class, e -> assertThat(e.reason()).isEqualTo(Reason.FAILED))
        .hasMessage("nvidia-smi topo -m exited with status 3: topo is not supported here");
  }

  @Test
  void aNonZeroExitWithOnlyStdoutCarriesStdout() throws Exception {
    String driverDown =
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure"
            + " that the latest NVIDIA driver is installed and running.\n";
    FakeNvidiaSmi.in(tmp).fail("-q -x", 9, driverDown, "").install();
    NvidiaSmi smi = NvidiaSmi.locate("nvidia-smi", tmp.toString(), TIMEOUT);

    assertThatThrownBy(() -> smi.run("-q", "-x"))
        .hasMessage("nvidia-smi -q -x exited with status 9: " + driverDown.strip());
  }

  @Test
  void aHangingNvidiaSmiIsKilledAtTheTimeout() throws Exception {
    FakeNvidiaSmi.in(tmp).first("sleep 30").answer("-q -x", "late").install();
    NvidiaSmi smi = NvidiaSmi.locate("nvidia-smi", tmp.toString(), Duration.ofMillis(300));
    long started = System.nanoTime();

    assertThatThrownBy(() -> smi.run("-q", "-x"))
        .isInstanceOfSatisfying(
            NvidiaSmiException.class, e -> assertThat(e.reason()).isEqualTo(Reason.TIMED_OUT))
        .hasMessage("nvidia-smi -q -x did not finish within 300 ms and was killed");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
  }
}
