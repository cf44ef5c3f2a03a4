package io.gantry.dradriver;

import static java.util.Objects.requireNonNull;

import io.gantry.dradriver.kube.DraDriverApiAccess;
import io.gantry.dradriver.metrics.DraDriverMetrics;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;

/**
 * Builds the running {@link DraDriver} from its settings (the API client, nvidia-smi discovery) and
 * serves until stopped. Nothing in the driver reads the time (its rediscovery is a fixed-delay
 * timer), so unlike the device agent's wiring it takes no clock.
 */
public final class DraDriverWiring {
  /** Exit status when nvidia-smi cannot take the first inventory. */
  public static final int NO_INVENTORY = 3;

  /** Exit status when the API client, the checkpoint or a socket cannot be set up. */
  public static final int CANNOT_START = 4;

  private final DraDriverSettings settings;
  private final MeterRegistry registry;

  /** {@code registry}: where the driver's meters go ({@code /metrics} serves it). */
  public DraDriverWiring(DraDriverSettings settings, MeterRegistry registry) {
    this.settings = requireNonNull(settings, "settings is null");
    this.registry = requireNonNull(registry, "registry is null");
  }

  /**
   * Serves until {@code stopped} is counted down; returns the exit status, 0 once stopped, after
   * writing why it could not start to {@code err}. {@code serving} runs once the driver serves the
   * kubelet (the ops endpoint's readiness).
   */
  public int serve(CountDownLatch stopped, PrintWriter err, Runnable serving)
      throws InterruptedException {
    ApiClient client;
    try {
      client = ApiClients.connect(settings.node().cluster());
      client.setUserAgent(DraDriverApiAccess.USER_AGENT);
    } catch (IOException e) {
      err.println("cannot configure the API client: " + e.getMessage());
      err.flush();
      return CANNOT_START;
    }
    DraDriver driver;
    try {
      driver =
          DraDriver.start(
              settings.node().nodeName(),
              settings.paths(),
              new GpuDiscovery(settings.nvidiaSmi().locate(settings.pathVariable().orElse(null))),
              client,
              settings.node().discoveryInterval(),
              new DraDriverMetrics(registry, settings.node().nodeName()));
    } catch (NvidiaSmiException e) {
      err.println("cannot take the GPU inventory: " + e.getMessage());
      err.flush();
      return NO_INVENTORY;
    } catch (IOException e) {
      err.println("cannot start: " + e.getMessage());
      err.flush();
      return CANNOT_START;
    }
    try {
      serving.run();
      stopped.await();
      return 0;
    } finally {
      driver.close();
    }
  }
}
