package io.gantry.nodecommon.ops;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A node DaemonSet's HTTP endpoint for the kubelet's probes and Prometheus: {@code GET /metrics}
 * (the Prometheus text of {@link #registry()}), {@code /healthz} (the process answers) and {@code
 * /readyz} (200 once {@link #markReady()} was called: the component serves the kubelet). Anything
 * else is 404; a method other than GET is 405. The metrics themselves are registered by the
 * component on {@link #registry()}.
 */
public final class OpsEndpoint implements AutoCloseable {
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService threads;
  private final PrometheusMeterRegistry registry;
  private final AtomicBoolean ready = new AtomicBoolean();

  private OpsEndpoint(
      HttpServer server, ExecutorService threads, PrometheusMeterRegistry registry) {
    this.server = server;
    this.threads = threads;
    this.registry = registry;
  }

  /** Serves on {@code address} (port 0: any free port) until closed. */
  public static OpsEndpoint start(InetSocketAddress address) throws IOException {
    requireNonNull(address, "address is null");
    HttpServer server = HttpServer.create(address, 0);
    ExecutorService threads =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "gantry-ops-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(threads);
    OpsEndpoint endpoint =
        new OpsEndpoint(server, threads, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    server.createContext("/", endpoint::handle);
    server.start();
    return endpoint;
  }

  /** Where the component's meters go; {@code /metrics} serves them. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** From now on {@code /readyz} answers 200. */
  public void markReady() {
    ready.set(true);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("GET")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      switch (exchange.getRequestURI().getPath()) {
        case "/metrics" -> answer(exchange, 200, PROMETHEUS_TEXT, registry.scrape());
        case "/healthz" -> answer(exchange, 200, TEXT, "ok\n");
        case "/readyz" ->
            answer(
                exchange,
                ready.get() ? 200 : 503,
                TEXT,
                ready.get() ? "ok\n" : "not serving the kubelet yet\n");
        default -> answer(exchange, 404, TEXT, "not found\n");
      }
    }
  }

  private static void answer(HttpExchange exchange, int code, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
    registry.close();
  }
}
