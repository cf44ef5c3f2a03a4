package io.gantry.deviceagent.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.deviceagent.mps.MpsControl;
import io.gantry.deviceagent.mps.MpsDaemons;
import io.gantry.deviceagent.mps.MpsLimits;
import io.gantry.deviceagent.testing.FakeMpsControl;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.discovery.InventorySource;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meters the wiring registers itself: discoveries and MPS daemons. */
class DeviceAgentMetricsTest {
  private static final String GPU0 = "GPU-00000000-0000-0000-0000-000000000000";

  @TempDir Path tmp;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final DeviceAgentMetrics metrics = new DeviceAgentMetrics(registry, "gpu-0");

  private long discoveries(String result) {
    return registry
        .get(DeviceAgentMetrics.PREFIX + "discovery")
        .tags("node", "gpu-0", "source", "nvidia-smi", "result", result)
        .timer()
        .count();
  }

  @Test
  void eachDiscoveryIsCountedByResult() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path smi = FakeNvidiaSmi.replaying(bin, Fixtures.HGX_H100).install();
    InventorySource timed =
        metrics.timed(
            new GpuDiscovery(NvidiaSmi.locate(smi.toString(), "", Duration.ofSeconds(10))));

    GpuInventory inventory = timed.discover();
    timed.discover();
    Files.delete(smi);

    assertThat(timed.name()).isEqualTo("nvidia-smi");
    assertThat(inventory.devices()).hasSize(8);
    assertThatThrownBy(timed::discover).isInstanceOf(NvidiaSmiException.class);
    assertThat(discoveries("ok")).isEqualTo(2);
    assertThat(discoveries("failed")).isEqualTo(1);
  }

  @Test
  void theMpsGaugeCountsTheRunningDaemons() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    FakeMpsControl.install(bin);
    MpsDaemons daemons =
        new MpsDaemons(
            MpsControl.locate(
                MpsControl.DEFAULT_COMMAND,
                bin.toString(),
                tmp.resolve("pipes"),
                tmp.resolve("logs"),
                Duration.ofSeconds(10)),
            Clock.systemUTC());
    metrics.mpsDaemons(daemons);

    assertThat(mpsDaemons()).isZero();
    daemons.ensure(GPU0, new MpsLimits(50, 40779));
    assertThat(mpsDaemons()).isEqualTo(1.0);
    daemons.stopAll();
    assertThat(mpsDaemons()).isZero();
  }

  private double mpsDaemons() {
    return registry
        .get(DeviceAgentMetrics.PREFIX + "mps.daemons")
        .tag("node", "gpu-0")
        .gauge()
        .value();
  }
}
