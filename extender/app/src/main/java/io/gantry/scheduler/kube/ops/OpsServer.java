package io.gantry.scheduler.kube.ops;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gantry.scheduler.kube.KubeScheduler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's HTTP endpoints on the Service's port: {@code GET /metrics} (Prometheus text),
 * {@code /healthz} (the loop is alive) and {@code /readyz} (the caches have synced). The debug
 * endpoints, which show cluster contents, are {@link DebugServer}'s, on another address. Anything
 * else is 404; a method other than GET is 405.
 */
public final class OpsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);

  private final HttpServer server;

  private OpsServer(HttpServer server) {
    this.server = server;
  }

  public static OpsServer start(KubeScheduler scheduler, InetSocketAddress address)
      throws IOException {
    requireNonNull(scheduler, "scheduler is null");
    HttpServer server = listen(address, "gantry-http", 2);
    server.createContext(
        "/metrics",
        e ->
            answer(
                e, 200, "text/plain; version=0.0.4; charset=utf-8", scheduler.metrics()::scrape));
    server.createContext(
        "/healthz",
        e ->
            answer(
                e,
                scheduler.healthy() ? 200 : 503,
                "text/plain; charset=utf-8",
                () -> scheduler.healthy() ? "ok\n" : "scheduling loop stalled\n"));
    server.createContext(
        "/readyz",
        e ->
            answer(
                e,
                scheduler.ready() ? 200 : 503,
                "text/plain; charset=utf-8",
                () -> scheduler.ready() ? "ok\n" : "informer caches not synced\n"));
    server.createContext(
        "/", e -> answer(e, 404, "text/plain; charset=utf-8", () -> "not found\n"));
    server.start();
    return new OpsServer(server);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /**
   * Answers a GET of exactly the context's path with {@code body}; another path 404, another method
   * 405; a body that throws 500.
   */
  static void answer(HttpExchange exchange, int code, String contentType, Supplier<String> body)
      throws IOException {
    answerBytes(exchange, code, contentType, () -> body.get().getBytes(UTF_8));
  }

  /** {@link #answer} with a body of bytes (a ZIP file). */
  static void answerBytes(
      HttpExchange exchange, int code, String contentType, Supplier<byte[]> body)
      throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("GET")) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      if (!exchange.getRequestURI().getPath().equals(exchange.getHttpContext().getPath())
          && code != 404) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      byte[] bytes;
      try {
        bytes = body.get();
      } catch (RuntimeException e) {
        LOG.error("serving {}", exchange.getRequestURI(), e);
        code = 500;
        bytes = ("internal error: " + e + "\n").getBytes(UTF_8);
      }
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(code, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** A server on {@code address} answering on {@code threads} daemon threads named {@code name}. */
  static HttpServer listen(InetSocketAddress address, String name, int threads) throws IOException {
    HttpServer server = HttpServer.create(address, 0);
    server.setExecutor(
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            }));
    return server;
  }

  /** Stops a server {@link #listen} made, and its threads. */
  static void stop(HttpServer server) {
    server.stop(0);
    ((ExecutorService) server.getExecutor()).shutdownNow();
  }

  @Override
  public void close() {
    stop(server);
  }
}
