package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.ops.OpsServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;

/**
 * The live scheduler's front door ({@code gantry scheduler}): from one {@link SchedulerSettings}
 * and a clock it connects to the cluster, starts the {@link KubeScheduler} and serves its ops
 * endpoints. Nothing below it reads the system clock: the clock given here is passed down.
 */
public final class LiveSchedulerWiring implements AutoCloseable {
  private final KubeScheduler scheduler;
  private final OpsServer ops;

  private LiveSchedulerWiring(KubeScheduler scheduler, OpsServer ops) {
    this.scheduler = scheduler;
    this.ops = ops;
  }

  /**
   * Connects, starts scheduling and serves the ops endpoints; returns once everything runs (the
   * caches sync in the background).
   *
   * @throws IOException when the cluster's configuration (the kubeconfig) cannot be read, or its
   *     API server does not answer within the settings' start-up timeout
   * @throws UncheckedIOException when the ops port cannot be served
   */
  public static LiveSchedulerWiring start(SchedulerSettings settings, Clock clock)
      throws IOException {
    requireNonNull(settings, "settings is null");
    requireNonNull(clock, "clock is null");
    KubeScheduler scheduler =
        KubeScheduler.start(
            KubeClients.connect(settings.cluster(), settings.startupTimeout()), settings, clock);
    try {
      return new LiveSchedulerWiring(
          scheduler, OpsServer.start(scheduler, new InetSocketAddress(settings.opsPort())));
    } catch (IOException e) {
      scheduler.close();
      throw new UncheckedIOException("cannot serve the ops endpoints: " + e.getMessage(), e);
    }
  }

  public KubeScheduler scheduler() {
    return scheduler;
  }

  /** The port the ops endpoints are served on (the one chosen, for port 0). */
  public int opsPort() {
    return ops.port();
  }

  /** Stops scheduling (a leader hands its lease over), then the ops endpoints. */
  @Override
  public void close() {
    scheduler.close();
    ops.close();
  }
}
