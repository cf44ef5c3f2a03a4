package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.ops.DebugServer;
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
  private final DebugServer debug;

  private LiveSchedulerWiring(KubeScheduler scheduler, OpsServer ops, DebugServer debug) {
    this.scheduler = scheduler;
    this.ops = ops;
    this.debug = debug;
  }

  /**
   * Connects, starts scheduling and serves the ops endpoints, and the debug endpoints on {@code
   * debugAddress}; returns once everything runs (the caches sync in the background). Every request
   * but watches is held to {@code limit} ({@code --kube-api-qps}, {@code --kube-api-burst}), with a
   * connection kept for each concurrent bind; metrics are named under {@code metricsNamespace}.
   *
   * @throws IOException when the cluster's configuration (the kubeconfig) cannot be read, or its
   *     API server does not answer within the settings' start-up timeout
   * @throws UncheckedIOException when the ops port or the debug address cannot be served
   */
  public static LiveSchedulerWiring start(
      SchedulerSettings settings,
      InetSocketAddress debugAddress,
      ApiRateLimit limit,
      String metricsNamespace,
      Clock clock)
      throws IOException {
    requireNonNull(settings, "settings is null");
    requireNonNull(debugAddress, "debugAddress is null");
    requireNonNull(limit, "limit is null");
    requireNonNull(metricsNamespace, "metricsNamespace is null");
    requireNonNull(clock, "clock is null");
    KubeScheduler scheduler =
        KubeScheduler.start(
            KubeClients.withLimits(
                KubeClients.connect(settings.cluster(), settings.startupTimeout()),
                limit,
                settings.bindConcurrency()),
            settings,
            clock,
            metricsNamespace);
    OpsServer ops;
    try {
      ops = OpsServer.start(scheduler, new InetSocketAddress(settings.opsPort()));
    } catch (IOException e) {
      scheduler.close();
      throw new UncheckedIOException("cannot serve the ops endpoints: " + e.getMessage(), e);
    }
    try {
      return new LiveSchedulerWiring(scheduler, ops, DebugServer.start(scheduler, debugAddress));
    } catch (IOException e) {
      scheduler.close();
      ops.close();
      throw new UncheckedIOException(
          "cannot serve the debug endpoints on " + debugAddress + ": " + e.getMessage(), e);
    }
  }

  public KubeScheduler scheduler() {
    return scheduler;
  }

  /** The port the ops endpoints are served on (the one chosen, for port 0). */
  public int opsPort() {
    return ops.port();
  }

  /** Where the debug endpoints are served. */
  public InetSocketAddress debugAddress() {
    return debug.address();
  }

  /** Stops scheduling (a leader hands its lease over), then the ops and debug endpoints. */
  @Override
  public void close() {
    scheduler.close();
    ops.close();
    debug.close();
  }
}
