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
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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

  /**
   * A discovery that finds the same GPUs changes the rows' values in place: replacing their meters
   * would leave a scrape that comes in between without the series.
   */
  @Test
  void aLaterDiscoveryKeepsTheGpuGaugesAndChangesTheirValues() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path smi = FakeNvidiaSmi.replaying(bin, Fixtures.HGX_H100).install();
    GpuInventory inventory =
        new GpuDiscovery(NvidiaSmi.locate(smi.toString(), "", Duration.ofSeconds(10))).discover();
    String model = inventory.devices().get(0).productName();
    GpuMetrics gpus = metrics.gpus();

    gpus.discovered(inventory);
    gpus.health(List.of(new GpuMetrics.GpuHealthRow(GPU0, 0, true)));
    Gauge byModel = gpuGauge(model);
    Gauge health = healthGauge();
    gpus.discovered(inventory);
    gpus.health(List.of(new GpuMetrics.GpuHealthRow(GPU0, 0, false)));

    assertThat(gpuGauge(model)).isSameAs(byModel);
    assertThat(byModel.value()).isEqualTo(8.0);
    assertThat(healthGauge()).isSameAs(health);
    assertThat(health.value()).isZero();
    gpus.health(List.of());
    assertThat(registry.find(DeviceAgentMetrics.PREFIX + "gpu.healthy").gauges()).isEmpty();
  }

  private Gauge gpuGauge(String model) {
    return registry
        .get(DeviceAgentMetrics.PREFIX + "gpus")
        .tags("node", "gpu-0", "model", model)
        .gauge();
  }

  private Gauge healthGauge() {
    return registry
        .get(DeviceAgentMetrics.PREFIX + "gpu.healthy")
        .tags("node", "gpu-0", "gpu_uuid", GPU0, "gpu_index", "0")
        .gauge();
  }

  private double mpsDaemons() {
    return registry
        .get(DeviceAgentMetrics.PREFIX + "mps.daemons")
        .tag("node", "gpu-0")
        .gauge()
        .value();
  }
}
