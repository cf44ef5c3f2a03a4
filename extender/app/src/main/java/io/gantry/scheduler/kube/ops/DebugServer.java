package io.gantry.scheduler.kube.ops;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpServer;
import io.gantry.scheduler.kube.KubeScheduler;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The scheduler's debug endpoints: {@code GET /snapshot}, the live state as a scenario file for
 * {@code gantry simulate}. It names every pod, node and queue of the cluster, so it is served apart
 * from {@link OpsServer}'s Service port, on an address of its own: the pod's loopback by default
 * ({@code --debug-address}), reached with {@code kubectl port-forward}, which the API server
 * authorises as {@code create pods/portforward}.
 *
 * <p>Nothing to redact: a scenario holds what the engine schedules by (names, labels, requests,
 * tolerations, affinities), never a container's env, command or volumes, nor any ConfigMap or
 * Secret data.
 */
public final class DebugServer implements AutoCloseable {
  /** Where {@code gantry scheduler} serves the debug endpoints unless told otherwise. */
  public static final String DEFAULT_ADDRESS = "127.0.0.1:8081";

  private final HttpServer server;

  private DebugServer(HttpServer server) {
    this.server = server;
  }

  public static DebugServer start(KubeScheduler scheduler, InetSocketAddress address)
      throws IOException {
    requireNonNull(scheduler, "scheduler is null");
    HttpServer server = OpsServer.listen(address, "gantry-debug-http", 1);
    server.createContext(
        "/snapshot",
        e -> {
          if (!scheduler.ready()) {
            OpsServer.answer(
                e, 503, "text/plain; charset=utf-8", () -> "informer caches not synced\n");
          } else {
            OpsServer.answer(
                e, 200, "application/yaml; charset=utf-8", scheduler::snapshotScenario);
          }
        });
    server.createContext(
        "/", e -> OpsServer.answer(e, 404, "text/plain; charset=utf-8", () -> "not found\n"));
    server.start();
    return new DebugServer(server);
  }

  /** The address served on (the port chosen, for port 0). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /**
   * {@code HOST:PORT} as an address: the form of {@code --debug-address}.
   *
   * @throws IllegalArgumentException naming what is wrong with {@code text}
   */
  public static InetSocketAddress parseAddress(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'", e);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    InetSocketAddress address = new InetSocketAddress(host, port);
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("cannot resolve host '" + host + "'");
    }
    return address;
  }

  @Override
  public void close() {
    OpsServer.stop(server);
  }
}
