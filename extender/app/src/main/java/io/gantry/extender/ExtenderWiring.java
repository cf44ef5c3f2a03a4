package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.scheduler.cycle.SchedulerWiring;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;

/**
 * The extender's front door ({@code gantry extender}): from one {@link ExtenderSettings}, the
 * source of its cluster and a clock it opens the cluster, builds the engine's cycle, the {@link
 * Extender} and its admission webhook, and serves them. Nothing below it reads the system clock:
 * the clock given here is passed down.
 */
public final class ExtenderWiring implements AutoCloseable {
  private final ServedCluster served;
  private final Extender extender;
  private final ExtenderServer server;

  private ExtenderWiring(ServedCluster served, Extender extender, ExtenderServer server) {
    this.served = served;
    this.extender = extender;
    this.server = server;
  }

  /**
   * Opens the cluster and serves it; returns once the server listens.
   *
   * @throws IOException when the live cluster's configuration cannot be read
   * @throws IllegalArgumentException when the server cannot start (a TLS file that does not load,
   *     naming it, or a port that cannot be listened on, naming the port); what was opened is
   *     closed again
   */
  public static ExtenderWiring start(
      ExtenderSettings settings, ExtenderClusterSource source, Clock clock)
      throws IOException, InterruptedException {
    requireNonNull(settings, "settings is null");
    requireNonNull(source, "source is null");
    requireNonNull(clock, "clock is null");
    ServedCluster served = source.open(clock);
    ExtenderCluster cluster = served.cluster();
    Extender extender =
        new Extender(
            cluster,
            new SchedulerWiring(new CelDeviceSelectors()).cycle(served.engine()),
            settings,
            new ExtenderMetrics(),
            clock);
    try {
      ExtenderServer server =
          ExtenderServer.start(
              extender,
              new AdmissionWebhook(
                  settings.webhookFailurePolicy(),
                  settings.webhookSkippedNamespaces(),
                  new QueueLabelCheck(served.queueLabelKey(), cluster::queueHierarchy),
                  served.gpuSharing()),
              new InetSocketAddress(settings.port()),
              settings.tls());
      return new ExtenderWiring(served, extender, server);
    } catch (IllegalArgumentException e) {
      extender.close();
      cluster.close();
      throw e;
    }
  }

  /** What is served, as {@link ServedCluster#description()} says. */
  public String description() {
    return served.description();
  }

  /** The port served (the one chosen, for port 0). */
  public int port() {
    return server.port();
  }

  /** Stops serving, then the extender's sweeper, then the cluster. */
  @Override
  public void close() {
    server.close();
    extender.close();
    served.cluster().close();
  }
}
